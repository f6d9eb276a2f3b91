/**
 * The stream provider's (TradingView) framing: a WebSocket text message holds one or more frames
 * `~m~<length>~m~<payload>`; a payload is a JSON message `{"m": method, "p": params}`, a heartbeat
 * `~h~<n>` that the client must echo verbatim, or (first frame only) the server's hello object.
 */
export type Frame =
  | { kind: "heartbeat"; raw: string }
  | { kind: "message"; method: string; params: unknown[] }
  | { kind: "other"; data: unknown };

/** One frame around a payload; the length counts characters, as the protocol does. */
export function encodeFrame(payload: string | { m: string; p: unknown[] }): string {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  return `~m~${text.length}~m~${text}`;
}

/** A client message as a frame. */
export const message = (method: string, params: unknown[]) => encodeFrame({ m: method, p: params });

/**
 * Every frame of a WebSocket message, in order. Malformed payloads are skipped rather than thrown:
 * one bad frame must not lose the ones beside it.
 */
export function decodeFrames(text: string): Frame[] {
  const frames: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const head = /^~m~(\d+)~m~/.exec(text.slice(i, i + 24));
    if (!head?.[1]) break;
    const start = i + head[0].length;
    const payload = text.slice(start, start + Number(head[1]));
    i = start + Number(head[1]);
    if (payload.startsWith("~h~")) {
      frames.push({ kind: "heartbeat", raw: payload });
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(payload);
    } catch {
      continue;
    }
    const m = data as { m?: unknown; p?: unknown };
    if (typeof m.m === "string") frames.push({ kind: "message", method: m.m, params: Array.isArray(m.p) ? m.p : [] });
    else frames.push({ kind: "other", data });
  }
  return frames;
}

/** A session id as clients make them: a prefix and twelve random lower-case letters. */
export function sessionId(prefix: "cs" | "qs"): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `${prefix}_${Array.from(bytes, (b) => letters[b % 26]).join("")}`;
}
