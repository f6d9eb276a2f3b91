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
   * Delivers each chunk of one direction to `to` after the delay, never before an earlier one; its
   * end (the sender's FIN) goes the same way, after the last chunk, whatever the delay is by then.
   */
  const relay = (to: Socket) => {
    let lastAt = 0;
    // Always through a timer, a delay of 0 too: the timer's own lag (a millisecond or more on a
    // busy loop) is then in both the near and the far measurement, and their difference is the
    // distance alone.
    const later = (act: () => void) => {
      const at = Math.max(Date.now() + proxy.delayMs, lastAt);
      lastAt = at;
      setTimeout(act, Math.max(0, at - Date.now()));
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
