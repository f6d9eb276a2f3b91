import { exports } from "cloudflare:workers";

export interface ServerMessage {
  type: string;
  ticker?: string;
  data?: Record<string, unknown> | null;
  error?: string | null;
  ts?: string;
}

/** A WebSocket client of the Worker under test: its messages as they come, and how it closed. */
export interface TestSocket {
  ws: WebSocket;
  messages: ServerMessage[];
  raw: string[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the first message (from index `from`) that satisfies `pred`, or rejects after `ms`. */
  next(pred: (m: ServerMessage) => boolean, ms?: number, from?: number): Promise<ServerMessage>;
}

/**
 * Opens WS /ws/realtime/{ticker}; `key` goes in the query (null: none), or as a header with `header`;
 * `ticket` goes in the query as `ticket`.
 */
export async function openSocket(
  ticker: string,
  key: string | null,
  opts: { header?: boolean; ticket?: string } = {},
): Promise<TestSocket> {
  const headers = new Headers({ Upgrade: "websocket" });
  let path = `/ws/realtime/${ticker}`;
  if (key !== null && opts.header) headers.set("x-api-key", key);
  else if (key !== null) path += `?token=${encodeURIComponent(key)}`;
  if (opts.ticket !== undefined) path += `${path.includes("?") ? "&" : "?"}ticket=${encodeURIComponent(opts.ticket)}`;
  const res = await exports.default.fetch(`http://svc${path}`, { headers });
  const ws = (res as Response & { webSocket: WebSocket | null }).webSocket;
  if (res.status !== 101 || !ws) throw new Error(`no upgrade: HTTP ${res.status} ${await res.text()}`);
  (ws as WebSocket & { accept(): void }).accept();
  const messages: ServerMessage[] = [];
  const raw: string[] = [];
  const waiters: (() => void)[] = [];
  ws.addEventListener("message", (ev) => {
    const text = String(ev.data);
    raw.push(text);
    messages.push(JSON.parse(text) as ServerMessage);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (ev) => resolve({ code: ev.code, reason: ev.reason })),
  );
  const next = (pred: (m: ServerMessage) => boolean, ms = 5000, from = 0) =>
    new Promise<ServerMessage>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching message within ${ms} ms; got ${raw.slice(from).join(" | ").slice(0, 500)}`)),
        ms,
      );
      const check = () => {
        const hit = messages.slice(from).find(pred);
        if (hit) {
          clearTimeout(timer);
          resolve(hit);
        } else waiters.push(check);
      };
      check();
    });
  return { ws, messages, raw, closed, next };
}
