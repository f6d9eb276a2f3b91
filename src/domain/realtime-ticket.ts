/**
 * Realtime tickets (POST /realtime/ticket): what a browser puts in the WebSocket URL instead of a key.
 * A ticket is random, names one ticker, lives TICKET_TTL_SECONDS and opens one socket: it is kept by
 * that ticker's object, which deletes it as it admits the socket, so a ticket seen in a log is spent.
 */
export const TICKET_TTL_SECONDS = 30;

/** The query parameter of the handshake that carries a ticket. */
export const TICKET_PARAM = "ticket";

const TICKET_SHAPE = /^tkt_[0-9a-f]{48}$/;

/** Whether a presented ticket has a ticket's shape (checked before anything else of the handshake is read). */
export const isTicketShape = (text: string): boolean => text.length === 52 && TICKET_SHAPE.test(text);

/** A new ticket: `tkt_` and 48 hex digits (192 random bits). */
export function newTicket(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `tkt_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
