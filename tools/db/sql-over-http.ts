import type { IncomingMessage, ServerResponse } from "node:http";
import pg from "pg";

/**
 * Neon's SQL-over-HTTP protocol in front of a plain Postgres (local Postgres or the embedded PGlite),
 * so that the Neon driver's HTTP mode (`neon()`, what the Worker reads and writes with) runs the same
 * code locally as against Neon. `POST /sql` with the headers `Neon-Connection-String`,
 * `Neon-Array-Mode` and `Neon-Raw-Text-Output`, and a body of one query `{query, params}` or of a
 * non-interactive transaction `{queries: [{query, params}, ...]}` (with `Neon-Batch-Isolation-Level`,
 * `Neon-Batch-Read-Only`, `Neon-Batch-Deferrable`). A result is `{fields, rows, command, rowCount,
 * rowAsArray}` (a transaction's: `{results: [...]}`); Postgres's refusal answers 400 with its error
 * fields, as Neon does, and an unreachable database 502 (the driver reports any other status as a
 * server error).
 *
 * The host and port are fixed (the connection string's are ignored), so that the endpoint reaches
 * nothing else; the user, password and database are the connection string's.
 */

/** The Postgres error fields that Neon passes on (the driver copies them onto its error). */
const ERROR_FIELDS = [
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

const ISOLATION_LEVELS: Record<string, string> = {
  ReadUncommitted: "read uncommitted",
  ReadCommitted: "read committed",
  RepeatableRead: "repeatable read",
  Serializable: "serializable",
};

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Every value as Postgres wrote it: the driver parses the text by each field's type, as with Neon. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

interface Query {
  query: string;
  params?: unknown[];
}

export interface SqlOverHttp {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

/** A 502, said on the console too: the Worker reports it only as "database unavailable". */
function unreachable(err: unknown): { status: number; json: unknown } {
  const message = `database unreachable: ${err instanceof Error ? err.message : String(err)}`;
  console.warn(`sql over http: ${message}`);
  return { status: 502, json: { message } };
}

export function sqlOverHttp(target: { host: string; port: number; ssl?: boolean }): SqlOverHttp {
  // One small pool per database and user: HTTP requests are independent, like Neon's.
  const pools = new Map<string, pg.Pool>();
  const poolFor = (connectionString: string): pg.Pool => {
    const url = new URL(connectionString);
    const key = `${url.username}:${url.password}@${url.pathname}`;
    let pool = pools.get(key);
    if (!pool) {
      pool = new pg.Pool({
        host: target.host,
        port: target.port,
        // A hosted Postgres asks for TLS (sslmode=require in its URL); the local ones have none.
        ...(target.ssl ? { ssl: true } : {}),
        user: decodeURIComponent(url.username) || "postgres",
        password: decodeURIComponent(url.password) || undefined,
        database: decodeURIComponent(url.pathname.slice(1)) || "postgres",
        max: 8,
        idleTimeoutMillis: 10_000,
        types: RAW_TEXT,
      });
      // An idle connection's error (server restart) must not crash the dev process.
      pool.on("error", () => undefined);
      pools.set(key, pool);
    }
    return pool;
  };

  // Rows go as arrays of text: the driver always asks for array mode and names the columns itself.
  const run = async (client: pg.PoolClient, q: Query) => {
    const config: pg.QueryArrayConfig = { text: q.query, values: q.params ?? [], rowMode: "array", types: RAW_TEXT };
    // Extended protocol always, as Neon: one statement, even without parameters (pg's own option,
    // missing from its types).
    const result = await client.query(Object.assign(config, { queryMode: "extended" }));
    return {
      fields: result.fields.map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
        tableID: f.tableID,
        columnID: f.columnID,
        dataTypeSize: f.dataTypeSize,
        dataTypeModifier: f.dataTypeModifier,
        format: f.format,
      })),
      rows: result.rows,
      command: result.command,
      rowCount: result.rowCount,
      rowAsArray: true,
    };
  };

  const answer = async (req: IncomingMessage, body: string): Promise<{ status: number; json: unknown }> => {
    const connectionString = req.headers["neon-connection-string"];
    if (typeof connectionString !== "string")
      return { status: 400, json: { message: "missing Neon-Connection-String header" } };
    let parsed: Query | { queries: Query[] };
    try {
      parsed = JSON.parse(body) as Query | { queries: Query[] };
    } catch {
      return { status: 400, json: { message: "the body is not JSON" } };
    }
    let client: pg.PoolClient;
    try {
      client = await poolFor(connectionString).connect();
    } catch (err) {
      return unreachable(err);
    }
    let broken = false;
    try {
      if (!("queries" in parsed)) return { status: 200, json: await run(client, parsed) };
      const asked = req.headers["neon-batch-isolation-level"];
      const level = asked === undefined ? undefined : ISOLATION_LEVELS[String(asked)];
      if (asked !== undefined && !level) return { status: 400, json: { message: `unknown isolation level ${asked}` } };
      const readOnly = req.headers["neon-batch-read-only"] === "true";
      const deferrable = req.headers["neon-batch-deferrable"] === "true";
      const mode = [level && `isolation level ${level}`, readOnly && "read only", deferrable && "deferrable"];
      await client.query(`begin ${mode.filter(Boolean).join(" ")}`);
      try {
        const results = [];
        for (const q of parsed.queries) results.push(await run(client, q));
        await client.query("commit");
        return { status: 200, json: { results } };
      } catch (err) {
        await client.query("rollback").catch(() => {
          broken = true;
        });
        throw err;
      }
    } catch (err) {
      const e = err as Record<string, unknown> & { message?: string };
      // Postgres refused the query (a SQLSTATE): 400 with its fields, as Neon answers. Else the
      // connection failed (ECONNRESET, "Connection terminated"): 502, the driver's server error.
      if (typeof e.code !== "string" || !SQLSTATE.test(e.code)) {
        broken = true;
        return unreachable(err);
      }
      const fields: Record<string, unknown> = { message: e.message };
      for (const f of ERROR_FIELDS) if (e[f] !== undefined) fields[f] = e[f];
      return { status: 400, json: fields };
    } finally {
      client.release(broken);
    }
  };

  return {
    handle(req, res) {
      if (req.method !== "POST" || new URL(req.url ?? "/", "http://local").pathname !== "/sql") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"message":"POST /sql only"}');
        return;
      }
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        answer(req, Buffer.concat(chunks).toString("utf8"))
          .catch((err: unknown) => ({ status: 500, json: { message: `local endpoint failed: ${String(err)}` } }))
          .then(({ status, json }) => {
            res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
          });
      });
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.end().catch(() => undefined)));
      pools.clear();
    },
  };
}
