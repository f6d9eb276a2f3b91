/** An update as both the simulator and a client can name it: minute, close and volume. */
export const tickKey = (timestamp: string, close: string | number, volume: number) =>
  `${timestamp}|${Number(close)}|${volume}`;

/**
 * Opens `count` WebSocket clients, 100 at a time; client i connects to `urlOf(i)` and hands each
 * tick's key (and when it arrived) to `onTick`. Resolves with the sockets once every one is open.
 * @example await openTickClients(1000, () => url, (i, key, at) => seen[i].set(key, at), () => closed++)
 */
export async function openTickClients(
  count: number,
  urlOf: (i: number) => string,
  onTick: (i: number, key: string, at: number) => void,
  onClose: () => void,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(urlOf(i));
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
