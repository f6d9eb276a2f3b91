/**
 * Realtime tickets (POST /realtime/ticket): what a browser puts in the WebSocket URL instead of a key.
 * A ticket is random and sealed for one ticker (services/realtime/ticket-seal.ts), lives
 * TICKET_TTL_SECONDS and opens one socket: it is kept by that ticker's object, which deletes it as it
 * admits the socket, so a ticket seen in a log is spent.
 */
export const TICKET_TTL_SECONDS = 30;
/** Tickets one key may hold unspent on one ticker: enough for pages that reconnect, too few to crowd out other keys. */
export const MAX_TICKETS_PER_KEY = 16;

/** The close reason (code 1008) of a ticket that is not one: made up, of another ticker, spent or lapsed. */
export const SPENT_TICKET = "unknown, spent or expired ticket";

/** The query parameter of the handshake that carries a ticket. */
export const TICKET_PARAM = "ticket";

const TICKET_SHAPE = /^tkt_[0-9a-f]{48}$/;

/** Whether a presented ticket has a ticket's shape (checked before anything else of the handshake is read). */
export const isTicketShape = (text: string): boolean => text.length === 52 && TICKET_SHAPE.test(text);
