import type { Server } from "node:http";
import { createConnection } from "node:net";
import { WebSocketServer } from "ws";

/**
 * Neon's WebSocket protocol in front of a plain Postgres: each WebSocket carries one Postgres
 * wire-protocol connection to a fixed TCP target (the Neon serverless driver's Pool speaks Postgres
 * over WebSockets). The target is fixed so the proxy cannot be used to reach anything else.
 */

/** The Postgres Terminate message: 'X' and its length, 4. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

/** Serves the WebSocket upgrades of `server` at `/v1`; answers a function that closes the open ones. */
export function attachWsProxy(server: Server, target: { host: string; port: number }): () => void {
  const wss = new WebSocketServer({ server, path: "/v1", perMessageDeflate: false });
  wss.on("connection", (ws) => {
    const tcp = createConnection(target);
    tcp.setNoDelay(true);
    const pending: Buffer[] = [];
    let connected = false;
    tcp.on("connect", () => {
      connected = true;
      for (const chunk of pending) tcp.write(chunk);
      pending.length = 0;
    });
    ws.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
      const chunk = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (connected) tcp.write(chunk);
      else pending.push(chunk);
      // Postgres hangs up after a Terminate message and the driver waits for that; the embedded
      // PGlite server does not, so the proxy ends the connection itself.
      if (chunk.subarray(-5).equals(TERMINATE)) tcp.end();
    });
    tcp.on("data", (chunk) => {
      if (ws.readyState === ws.OPEN) ws.send(chunk);
    });
    const end = () => {
      tcp.destroy();
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close();
    };
    tcp.on("error", end);
    tcp.on("close", end);
    ws.on("close", end);
    ws.on("error", end);
  });
  return () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}
