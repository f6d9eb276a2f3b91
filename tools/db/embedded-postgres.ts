import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
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

/** Extended-protocol messages that leave a statement or portal open until the client's Sync. */
const OPENS_EXTENDED = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)));
const SYNC = "S".charCodeAt(0);

/**
 * PGlite as the socket server should see it. The server runs the messages of all connections on
 * PGlite's one session, one message at a time, keeping to one connection only inside a
 * transaction; two connections' extended queries (Parse, Bind, Execute ... Sync) could interleave,
 * one's Bind replacing the other's unnamed portal ("portal does not exist"). Reporting an open
 * extended query as "in a transaction" keeps the server on that connection until its Sync.
 */
function oneQueryAtATime(db: PGlite): PGlite {
  let openExtended = false;
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "isInTransaction") return () => openExtended || target.isInTransaction();
      if (prop === "execProtocolRawStream")
        return async (message: Uint8Array, opts: unknown) => {
          const kind = message[0] ?? 0;
          if (OPENS_EXTENDED.has(kind)) openExtended = true;
          try {
            return await (target.execProtocolRawStream as (m: Uint8Array, o: unknown) => Promise<unknown>)(
              message,
              opts,
            );
          } finally {
            if (kind === SYNC) openExtended = false;
          }
        };
      // The server rolls back a departed client's transaction with exec: its open query goes with it.
      if (prop === "exec")
        return async (query: string, ...rest: unknown[]) => {
          openExtended = false;
          return (target.exec as (q: string, ...r: unknown[]) => Promise<unknown>)(query, ...rest);
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export async function startEmbeddedPostgres(opts: { dataDir?: string; port?: number } = {}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  // pg_trgm: the trigram indexes of GET /search (migration 0014), as Postgres and Neon have them.
  const db = await PGlite.create(opts.dataDir ?? "memory://", { extensions: { pg_trgm } });
  // PGlite runs one query at a time; the server multiplexes client connections onto it (each concurrent
  // request holds one: 50 first requests of one ticker at once must all get in).
  const server = new PGLiteSocketServer({
    db: oneQueryAtATime(db),
    host: "127.0.0.1",
    port: opts.port ?? 0,
    maxConnections: 256,
  });
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
