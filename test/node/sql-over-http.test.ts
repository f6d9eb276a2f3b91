import { neon, neonConfig } from "@neondatabase/serverless";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseUnavailable } from "../../src/db/errors";
import { type NeonLocal, startNeonLocal } from "../../tools/db/neon-local";

/**
 * The local stand-in for Neon's SQL-over-HTTP, driven by the Neon driver itself (what the Worker
 * runs): values typed by the driver from Postgres's text, Postgres's refusals as the driver's
 * errors with their SQLSTATE, a batch that is one transaction, and an unreachable database told
 * apart from a refused query.
 */

const databaseUrl = inject("databaseUrl");
let local: NeonLocal;
let closed: NeonLocal;

beforeAll(async () => {
  const target = new URL(databaseUrl);
  local = await startNeonLocal({ host: target.hostname, port: Number(target.port || 5432) });
  // An endpoint whose database is not there: port 9 (discard) refuses the connection.
  closed = await startNeonLocal({ host: "127.0.0.1", port: 9 });
});
afterAll(async () => {
  await local.close();
  await closed.close();
});

/** The driver aimed at `endpoint` (the setting is the driver's, process-wide: set before each call). */
function sqlAt(endpoint: NeonLocal) {
  neonConfig.fetchEndpoint = () => endpoint.httpEndpoint;
  return neon(databaseUrl, { fullResults: true });
}

describe("SQL over HTTP in front of a plain Postgres", () => {
  it("answers a query with parameters, each value typed by the driver from Postgres's text", async () => {
    const sql = sqlAt(local);
    const r = await sql.query("select $1::int + 1 as n, $2::numeric as x, 'a'::text as s, null::int as z, true as b", [
      41,
      "0.1",
    ]);
    expect(r.rows).toEqual([{ n: 42, x: "0.1", s: "a", z: null, b: true }]);
    expect(r.fields.map((f) => f.name)).toEqual(["n", "x", "s", "z", "b"]);
    expect(r.command).toBe("SELECT");
    expect(r.rowCount).toBe(1);
  });

  it("passes on Postgres's refusal with its SQLSTATE, and refuses two statements in one query as Neon does", async () => {
    const sql = sqlAt(local);
    const missing = await sql.query("select * from no_such_table_here").catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "42P01", message: 'relation "no_such_table_here" does not exist' });
    expect(databaseUnavailable(missing)).toBe(false);
    const two = await sql.query("select 1; select 2").catch((e: unknown) => e);
    expect(two).toMatchObject({ code: "42601" });
  });

  it("runs a batch as one transaction: a failing statement takes the others back with it", async () => {
    const sql = sqlAt(local);
    await sql.query("create table if not exists sql_over_http_probe (id int primary key)");
    await sql.query("delete from sql_over_http_probe");
    const failed = await sql
      .transaction([sql.query("insert into sql_over_http_probe values (1)"), sql.query("select 1/0")])
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: "22012" });
    expect((await sql.query("select count(*)::int as n from sql_over_http_probe")).rows).toEqual([{ n: 0 }]);
    const done = await sql.transaction(
      [
        sql.query("insert into sql_over_http_probe values (1)"),
        sql.query("select count(*)::int as n from sql_over_http_probe"),
      ],
      { isolationLevel: "Serializable", readOnly: false },
    );
    expect(done.map((r) => r.rows)).toEqual([[], [{ n: 1 }]]);
    await sql.query("drop table sql_over_http_probe");
  });

  it("answers an unreachable database as the driver's server error, which the service counts as unavailable", async () => {
    const err = await sqlAt(closed)
      .query("select 1")
      .catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/^Server error \(HTTP status 502\): .*database unreachable/);
    expect(databaseUnavailable(err)).toBe(true);
  });
});
