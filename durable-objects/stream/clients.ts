import { z } from "zod";
import { type ClientKind, PONG } from "../../src/domain/realtime";

/**
 * Sockets one ticker serves at once (a hibernatable Durable Object can hold some 32,000): past it a
 * handshake gets 429 with Retry-After, so one ticker cannot take its object's memory from the rest.
 */
export const MAX_SOCKETS_PER_TICKER = 5000;
/** Sockets one key may hold on one ticker, so that one key cannot take a ticker's capacity from the others. */
export const MAX_SOCKETS_PER_KEY = 1000;
const SOCKETS_RETRY_AFTER_SECONDS = 30;
/** Client commands are a word or a small JSON object: anything longer is refused unread (close 1009). */
export const MAX_CLIENT_MESSAGE_BYTES = 1024;

const ClientCommand = z.enum(["ping", "unsubscribe"]);
const JsonCommand = z.object({
  type: z
    .string()
    .transform((t) => t.trim().toLowerCase())
    .pipe(ClientCommand),
});

/** A client's message as a command: the bare word or `{"type": ...}`, case and spaces ignored; null for anything else. */
function clientCommand(text: string): z.infer<typeof ClientCommand> | null {
  const word = ClientCommand.safeParse(text.trim().toLowerCase());
  if (word.success) return word.data;
  try {
    const json = JsonCommand.safeParse(JSON.parse(text));
    return json.success ? json.data.type : null;
  } catch {
    return null;
  }
}

/** A message's UTF-8 size; a string's is at most three bytes per UTF-16 unit, so small ones are not encoded. */
function sizeOf(message: string | ArrayBuffer): number {
  if (typeof message !== "string") return message.byteLength;
  return message.length * 3 <= MAX_CLIENT_MESSAGE_BYTES ? message.length : new TextEncoder().encode(message).byteLength;
}

function tooManySockets(message: string): Response {
  return Response.json(
    { error: "Too many requests", message },
    { status: 429, headers: { "Retry-After": String(SOCKETS_RETRY_AFTER_SECONDS) } },
  );
}

/**
 * The WebSocket clients of one ticker's object, as the hibernation API keeps them (each tagged with
 * its key kind and its key's fingerprint): their caps, what they may send, and what is sent to all.
 */
export class StreamClients {
  constructor(private readonly ctx: DurableObjectState) {}

  get count(): number {
    return this.ctx.getWebSockets().length;
  }

  /** A 429 when the ticker, or this key on it, already holds its most sockets; null when one more fits. */
  refusal(ticker: string, client: string): Response | null {
    if (this.count >= MAX_SOCKETS_PER_TICKER)
      return tooManySockets(`${ticker} already serves ${MAX_SOCKETS_PER_TICKER} sockets; retry later`);
    if (this.ctx.getWebSockets(client).length >= MAX_SOCKETS_PER_KEY)
      return tooManySockets(`This key already holds ${MAX_SOCKETS_PER_KEY} sockets on ${ticker}; close some first`);
    return null;
  }

  /** Accepts a new client: the object keeps the server side; the other side goes back in the 101. */
  accept(kind: ClientKind, client: string): { socket: WebSocket; server: WebSocket } {
    const pair = new WebSocketPair();
    const [socket, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [kind, client]);
    return { socket, server };
  }

  /** Sends `text` to every client; one broken client does not stop the others. */
  broadcast(text: string): void {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // the client is gone
      }
    }
  }

  closeAll(code: number, reason: string): void {
    for (const ws of this.ctx.getWebSockets()) closeQuietly(ws, code, reason);
  }

  /**
   * `ping` (or `{"type":"ping"}`) is answered with exactly `{"type":"pong"}`; `unsubscribe` closes;
   * a message over MAX_CLIENT_MESSAGE_BYTES closes with 1009 unread; anything else is ignored.
   */
  answer(ws: WebSocket, message: string | ArrayBuffer): void {
    if (sizeOf(message) > MAX_CLIENT_MESSAGE_BYTES) {
      closeQuietly(ws, 1009, `messages are at most ${MAX_CLIENT_MESSAGE_BYTES} bytes`);
      return;
    }
    const command = clientCommand(typeof message === "string" ? message : new TextDecoder().decode(message));
    try {
      if (command === "ping") ws.send(PONG);
      else if (command === "unsubscribe") closeQuietly(ws, 1000, "unsubscribed");
    } catch {
      // the client went away meanwhile
    }
  }
}

export function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}
