import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "redis";

/**
 * A local stand-in for Upstash's REST front: speaks the Upstash REST protocol (POST / with a JSON
 * command array, /pipeline, /multi-exec, Bearer token, `Upstash-Encoding: base64`) in front of a real
 * Redis, so the production `@upstash/redis` client runs against Redis for real in development and tests.
 */
export interface RedisBridge {
  url: string;
  token: string;
  close(): Promise<void>;
}

type Reply = string | number | null | Reply[] | { [k: string]: Reply };

function encode(value: Reply, base64: boolean): Reply {
  if (!base64) return value;
  if (typeof value === "string") return value === "OK" ? value : Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map((v) => encode(v, base64));
  return value;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.length === 0 ? null : JSON.parse(text);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const isCommand = (v: unknown): v is (string | number | boolean)[] =>
  Array.isArray(v) && v.length > 0 && v.every((a) => ["string", "number", "boolean"].includes(typeof a));

export async function startRedisBridge(opts: { redisUrl: string; token: string; port?: number }): Promise<RedisBridge> {
  const redis = createClient({ url: opts.redisUrl });
  redis.on("error", (err: unknown) => console.warn("redis bridge:", String(err)));
  await redis.connect();

  const run = async (cmd: (string | number | boolean)[]): Promise<Reply> =>
    (await redis.sendCommand(cmd.map((a) => String(a)))) as Reply;

  const server = createServer(async (req, res) => {
    try {
      if (req.headers.authorization !== `Bearer ${opts.token}`) return send(res, 401, { error: "Unauthorized" });
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const body = req.method === "POST" ? await readJson(req) : null;

      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || !body.every(isCommand))
          return send(res, 400, { error: "ERR a pipeline is an array of commands" });
        if (path === "/multi-exec") {
          const multi = redis.multi();
          for (const cmd of body) multi.addCommand(cmd.map(String));
          const replies = (await multi.exec()) as unknown as Reply[];
          return send(
            res,
            200,
            replies.map((r) => ({ result: encode(r, base64) })),
          );
        }
        const out: { result?: Reply; error?: string }[] = [];
        for (const cmd of body) {
          try {
            out.push({ result: encode(await run(cmd), base64) });
          } catch (err) {
            out.push({ error: err instanceof Error ? err.message : String(err) });
          }
        }
        return send(res, 200, out);
      }

      // Single command: JSON body, or the path form /set/key/value.
      const cmd = body ?? path.split("/").filter(Boolean).map(decodeURIComponent);
      if (!isCommand(cmd)) return send(res, 400, { error: "ERR a command is a non-empty array" });
      try {
        return send(res, 200, { result: encode(await run(cmd), base64) });
      } catch (err) {
        return send(res, 400, { error: err instanceof Error ? err.message : String(err) });
      }
    } catch (err) {
      return send(res, 400, { error: `ERR ${err instanceof Error ? err.message : String(err)}` });
    }
  });
  // Idle connections kept a minute, as a hosted endpoint keeps them: the Worker reuses its
  // connections, and one closed under a request in flight (Node's 5 s default) fails that request.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    token: opts.token,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit().catch(() => undefined);
    },
  };
}
