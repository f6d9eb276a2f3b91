import type { AddressInfo } from "node:net";
import { createConnection } from "node:net";
import { WebSocketServer } from "ws";

/**
 * A Neon-style WebSocket proxy for local development and tests: each WebSocket carries one
 * Postgres wire-protocol connection to a fixed TCP target (the Neon serverless driver speaks
 * Postgres over WebSockets). The target is fixed so the proxy cannot be used to reach anything else.
 */
export interface WsProxy {
  port: number;
  /** The value of NEON_WS_PROXY for this proxy. */
  address: string;
  close(): Promise<void>;
}

/** The Postgres Terminate message: 'X' and its length, 4. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

export async function startWsProxy(target: { host: string; port: number }, listenPort = 0): Promise<WsProxy> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: listenPort, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    wss.once("listening", resolve);
    wss.once("error", reject);
  });
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
  const port = (wss.address() as AddressInfo).port;
  return {
    port,
    address: `127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
