import { z } from "zod";
import {
  type ClientKind,
  NOT_STREAMING_CLOSE,
  notStreamingText,
  PONG,
  type RealtimeTick,
  serverMessage,
} from "../../src/domain/realtime";

/**
 * Sockets one ticker serves at once (a hibernatable Durable Object can hold some 32,000): past it a
 * handshake gets 429 with Retry-After, so one ticker cannot take its object's memory from the rest.
 */
export const MAX_SOCKETS_PER_TICKER = 5000;
const SOCKETS_RETRY_AFTER_SECONDS = 30;
const LEASE_TAG = "lease:";
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

  /** A 429 when the ticker already holds its most sockets; null when one more fits. */
  refusal(ticker: string): Response | null {
    if (this.count >= MAX_SOCKETS_PER_TICKER)
      return tooManySockets(`${ticker} already serves ${MAX_SOCKETS_PER_TICKER} sockets; retry later`);
    return null;
  }

  /** A 429 for a key that holds its most sockets over all tickers (its KeyMeter's cap). */
  keyFull(held: number): Response {
    return tooManySockets(`This key already holds ${held} sockets, its most over all tickers; close some first`);
  }

  /**
   * Accepts a new client, tagged with its key kind, its key (`client`) and its socket lease: the
   * object keeps the server side; the other side goes back in the 101.
   */
  accept(kind: ClientKind, client: string, lease: string): { socket: WebSocket; server: WebSocket } {
    const pair = new WebSocketPair();
    const [socket, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [kind, client, `${LEASE_TAG}${lease}`]);
    return { socket, server };
  }

  /** The leases of the open sockets of one key. */
  leasesOf(client: string): string[] {
    return this.ctx.getWebSockets(client).flatMap((ws) => {
      const lease = this.leaseOf(ws);
      return lease ? [lease] : [];
    });
  }

  /** A socket's lease, from its tags. */
  leaseOf(ws: WebSocket): string | null {
    const tag = this.ctx.getTags(ws).find((t) => t.startsWith(LEASE_TAG));
    return tag ? tag.slice(LEASE_TAG.length) : null;
  }

  /** A socket's key, from its tags (`key:` and the fingerprint). */
  clientOf(ws: WebSocket): string | null {
    return this.ctx.getTags(ws).find((t) => t.startsWith("key:")) ?? null;
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

/** A new client's first message: the last tick of a streamed ticker, else `not_streaming` and a normal close. */
export function greet(
  server: WebSocket,
  ticker: string,
  streaming: boolean,
  last: RealtimeTick | null,
  now: Date,
): void {
  if (streaming) {
    if (last) server.send(serverMessage("snapshot", ticker, last, null, now));
    return;
  }
  server.send(serverMessage("not_streaming", ticker, null, notStreamingText(ticker), now));
  closeQuietly(server, NOT_STREAMING_CLOSE.code, NOT_STREAMING_CLOSE.reason);
}

/** The 503 of a full-access handshake whose stream could not be started: no socket. */
export const startFailed = (ticker: string): Response =>
  Response.json(
    { error: "Upstream unavailable", message: `The stream of ${ticker} could not be started; try again shortly` },
    { status: 503 },
  );
