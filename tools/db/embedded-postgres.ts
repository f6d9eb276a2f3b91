import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * An embedded Postgres (PGlite) served over TCP, for machines without a Postgres server.
 * `dataDir` keeps the data between runs; undefined keeps it in memory.
 */
export interface EmbeddedPostgres {
  url: string;
  host: string;
  port: number;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(opts: { dataDir?: string; port?: number } = {}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const db = await PGlite.create(opts.dataDir ?? "memory://");
  // PGlite runs one query at a time; the server multiplexes client connections onto it (each concurrent
  // request holds one: 50 first requests of one ticker at once must all get in).
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: opts.port ?? 0, maxConnections: 256 });
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: "127.0.0.1",
    port,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
