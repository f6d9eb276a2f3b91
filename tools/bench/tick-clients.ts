/** An update as both the simulator and a client can name it: minute, close and volume. */
export const tickKey = (timestamp: string, close: string | number, volume: number) =>
  `${timestamp}|${Number(close)}|${volume}`;

/**
 * A WebSocket client of Node (undici's) that sends `key` as X-API-KEY in its handshake: full-access
 * keys are not taken from the URL. The headers option is undici's, beyond the browser's API.
 */
export function keyedSocket(url: string, key: string): WebSocket {
  const init = { headers: { "X-API-KEY": key } };
  return new WebSocket(url, init as unknown as string[]);
}

/**
 * Opens `count` WebSocket clients, 100 at a time; client i connects to `targetOf(i)` with its key in
 * a header and hands each tick's key (and when it arrived) to `onTick`. Resolves with the sockets
 * once every one is open.
 * @example await openTickClients(1000, () => ({ url, key }), (i, k, at) => seen[i].set(k, at), () => closed++)
 */
export async function openTickClients(
  count: number,
  targetOf: (i: number) => { url: string; key: string },
  onTick: (i: number, key: string, at: number) => void,
  onClose: () => void,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const { url, key } = targetOf(i);
      const ws = keyedSocket(url, key);
      ws.addEventListener("message", (ev) => {
        const at = performance.now();
        const m = JSON.parse(String(ev.data)) as {
          type: string;
          data?: { timestamp: string; close: string; volume: number };
        };
        if (m.type === "tick" && m.data) onTick(i, tickKey(m.data.timestamp, m.data.close, m.data.volume), at);
      });
      ws.addEventListener("open", () => resolve());
      ws.addEventListener("error", () => reject(new Error(`client ${i} failed to connect`)));
      ws.addEventListener("close", onClose);
      sockets.push(ws);
    });
  for (let i = 0; i < count; i += 100)
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)));
  return sockets;
}
