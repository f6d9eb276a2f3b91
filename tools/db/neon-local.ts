import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sqlOverHttp } from "./sql-over-http";
import { attachWsProxy } from "./ws-proxy";

/**
 * A local stand-in for Neon's endpoints in front of a plain Postgres (development, tests, benches):
 * SQL over HTTP at `/sql` (the driver's `neon()`, what the Worker uses for every query) and the
 * WebSocket proxy at `/v1` (the driver's Pool, for the interactive transactions), on one port.
 */
export interface NeonLocal {
  port: number;
  /** The value of NEON_HTTP_ENDPOINT for this endpoint. */
  httpEndpoint: string;
  /** The value of NEON_WS_PROXY for this endpoint. */
  wsProxy: string;
  /** The Worker's settings that point the driver here. */
  vars: { NEON_HTTP_ENDPOINT: string; NEON_WS_PROXY: string };
  close(): Promise<void>;
}

export async function startNeonLocal(
  target: { host: string; port: number; ssl?: boolean },
  listenPort = 0,
): Promise<NeonLocal> {
  const sql = sqlOverHttp(target);
  const server = createServer((req, res) => sql.handle(req, res));
  // Keep-alive as Neon's: the Worker's fetches reuse a connection instead of opening one per query.
  server.keepAliveTimeout = 60_000;
  const closeSockets = attachWsProxy(server, target);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listenPort, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const httpEndpoint = `http://127.0.0.1:${port}/sql`;
  const wsProxy = `127.0.0.1:${port}/v1`;
  return {
    port,
    httpEndpoint,
    wsProxy,
    vars: { NEON_HTTP_ENDPOINT: httpEndpoint, NEON_WS_PROXY: wsProxy },
    async close() {
      closeSockets();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sql.close();
    },
  };
}
