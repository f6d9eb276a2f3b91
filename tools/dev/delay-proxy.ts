import { type AddressInfo, createConnection, createServer, type Socket } from "node:net";

/**
 * A TCP proxy that holds every chunk for a fixed delay each way: the local stack as it is when the
 * database or the cache sits an ocean away (the distance benchmark). Order is kept per direction.
 * It also counts what crossed it: connections opened, and round trips (an exchange starts when the
 * client speaks after the server has, or first), the measure of what distance costs.
 */
export interface DelayProxy {
  port: number;
  /** Milliseconds each chunk waits, each way (changeable between measurements). */
  delayMs: number;
  /** What crossed since the last reset. */
  counts(): { connections: number; roundTrips: number };
  reset(): void;
  close(): Promise<void>;
}

export async function startDelayProxy(target: { host: string; port: number }, delayMs = 0): Promise<DelayProxy> {
  let connections = 0;
  let roundTrips = 0;
  const sockets = new Set<Socket>();
  const proxy: DelayProxy = {
    port: 0,
    delayMs,
    counts: () => ({ connections, roundTrips }),
    reset: () => {
      connections = 0;
      roundTrips = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /**
   * Delivers each chunk of one direction to `to` after the delay, in the order received; its end
   * (the sender's FIN) goes the same way, after the last chunk. One queue and one timer at a time:
   * a timer per chunk could fire out of order (two timers set in one turn of the loop, their
   * delays a millisecond apart), which cut a body in two and swapped its halves. Always through a
   * timer, a delay of 0 too, so that the timer's lag is in the near and the far figure alike.
   */
  const relay = (to: Socket) => {
    const queue: { at: number; act: () => void }[] = [];
    let timer: NodeJS.Timeout | undefined;
    const pump = () => {
      timer = undefined;
      while (queue.length > 0 && (queue[0]?.at ?? 0) <= Date.now()) queue.shift()?.act();
      const next = queue[0];
      if (next) timer = setTimeout(pump, Math.max(0, next.at - Date.now()));
    };
    const later = (act: () => void) => {
      const at = Math.max(Date.now() + proxy.delayMs, queue.at(-1)?.at ?? 0);
      queue.push({ at, act });
      timer ??= setTimeout(pump, Math.max(0, at - Date.now()));
    };
    return {
      send: (chunk: Buffer) =>
        later(() => {
          if (!to.destroyed) to.write(chunk);
        }),
      end: () => later(() => to.end()),
    };
  };

  const server = createServer((client) => {
    connections += 1;
    const upstream = createConnection(target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    const toServer = relay(upstream);
    const toClient = relay(client);
    let clientsTurn = true;
    client.on("data", (chunk: Buffer) => {
      if (clientsTurn) roundTrips += 1;
      clientsTurn = false;
      toServer.send(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      clientsTurn = true;
      toClient.send(chunk);
    });
    // An end of one side ends the other after what is in flight; an error ends both at once.
    client.on("end", () => toServer.end());
    upstream.on("end", () => toClient.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => sockets.delete(client));
    upstream.on("close", () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  proxy.port = (server.address() as AddressInfo).port;
  return proxy;
}
