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

  /** Delivers `chunk` to `to` after the delay, never before an earlier chunk of the same direction. */
  const relay = () => {
    let lastAt = 0;
    return (to: Socket, chunk: Buffer) => {
      const at = Math.max(Date.now() + proxy.delayMs, lastAt);
      lastAt = at;
      const send = () => {
        if (!to.destroyed) to.write(chunk);
      };
      const wait = at - Date.now();
      if (wait <= 0) send();
      else setTimeout(send, wait);
    };
  };

  const server = createServer((client) => {
    connections += 1;
    const upstream = createConnection(target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    const toServer = relay();
    const toClient = relay();
    let clientsTurn = true;
    client.on("data", (chunk: Buffer) => {
      if (clientsTurn) roundTrips += 1;
      clientsTurn = false;
      toServer(upstream, chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      clientsTurn = true;
      toClient(client, chunk);
    });
    // An end or an error of one side ends the other, after what is in flight has been delivered.
    const endLater = (s: Socket) => setTimeout(() => s.end(), proxy.delayMs + 1);
    client.on("end", () => endLater(upstream));
    upstream.on("end", () => endLater(client));
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
