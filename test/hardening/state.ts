import { env, exports } from "cloudflare:workers";
import { eq, inArray, sql } from "drizzle-orm";
import { assets, listings, realtimeSubscriptions } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { FULL_KEY } from "../helpers/keys";
import { resetFxRates, resetMacroRates, resetTickers } from "../helpers/listings";

/**
 * Tables whose rows are not the effect of a request: logs of requests and leases (one per request by
 * design), the canary's checks (a log of observations: each run adds its own, with the latencies it
 * measured; what a run decides, its verdicts and alerts, is compared), and the 1-minute candles a
 * running stream keeps writing whatever the requests were.
 */
const NOT_STATE = new Set([
  "usage_logs",
  "usage_anonymous",
  // Each attempt to add an instrument counts against its key's minute, by design (a rate limit).
  "catalogue_addition_budget",
  "ingest_leases",
  "provider_checks",
  "prices_intraday",
  "__drizzle_migrations",
]);
/**
 * Columns left out of the comparison: what a running stream keeps counting whatever the requests
 * were, and references to serial ids that differ from run to run (a news link names its article by
 * id; the article itself is compared by its normalised URL).
 */
const STREAM_COUNTERS = new Set([
  "realtime_subscriptions.tick_count",
  "news_article_assets.article_id",
  // A managed key is drawn at random: its id, hash and first characters differ run to run (its
  // name, kind, expiry and revocation are compared).
  "api_keys.id",
  "api_keys.hash",
  "api_keys.prefix",
]);

/**
 * References to a row created by the requests, read by what identifies that row: requests at once
 * may draw its serial id in another order (an INSERT ... ON CONFLICT that loses still takes a
 * number), and the id is no state.
 */
const BY_IDENTITY: Record<string, string> = {
  "listings.asset_id": `(select isin from assets where assets.id = "asset_id")`,
};

/** Per table: row count and a digest of the rows, without surrogate ids and timestamps (they differ run to run). */
export type Snapshot = Record<string, { rows: number; digest: string }>;

/**
 * The query that digests every table: per table its row count and a sum of row hashes (independent
 * of row order, so no sort of the whole table; the catalogue refresh leaves hundreds of thousands
 * of bars), all in one statement. Built once: the schema is migrated before any test runs.
 */
let digestQuery: Promise<string> | undefined;

async function buildDigestQuery(db: ReturnType<typeof buildDeps>["db"]): Promise<string> {
  const columns = await db.execute<{ table_name: string; column_name: string }>(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public'
      and column_name <> 'id'
      and column_name not like '%\_at'
      and data_type not in ('timestamp without time zone', 'timestamp with time zone')
    order by table_name, ordinal_position`);
  const byTable = new Map<string, string[]>();
  for (const c of columns.rows) {
    if (NOT_STATE.has(c.table_name) || STREAM_COUNTERS.has(`${c.table_name}.${c.column_name}`)) continue;
    byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  }
  return [...byTable]
    .map(
      ([table, cols]) =>
        `select '${table}' as t, count(*)::int as n, sum(hashtextextended(r, 0)::numeric)::text as h from (select row(${cols.map((c) => BY_IDENTITY[`${table}.${c}`] ?? `"${c}"`).join(", ")})::text as r from "${table}") s`,
    )
    .join(" union all ");
}

/** What the database holds, comparable between two runs of the same requests. */
export async function snapshotDatabase(): Promise<Snapshot> {
  const deps = buildDeps(env);
  const { db } = deps;
  try {
    // A failed build is not kept: the next snapshot builds it again.
    digestQuery ??= buildDigestQuery(db).catch((err: unknown) => {
      digestQuery = undefined;
      throw err;
    });
    const r = await db.execute<{ t: string; n: number; h: string | null }>(sql.raw(await digestQuery));
    const out: Snapshot = {};
    for (const row of r.rows) out[row.t] = { rows: row.n, digest: row.h ?? "" };
    return out;
  } finally {
    await deps.close();
  }
}

/**
 * Puts the tickers back to "nothing stored, nothing cached, not streamed, never subscribed"; an
 * ISIN among them stands for every listing of its instrument. The macro rate, which every valuation
 * reads, the stored FX rates and the catalogue's refresh runs are forgotten too.
 */
export async function resetState(names: string[]): Promise<void> {
  await resetMacroRates();
  await resetFxRates();
  const isins = names.filter((n) => /^[A-Z]{2}[A-Z0-9]{9}\d$/.test(n));
  const tickers = names.filter((n) => !isins.includes(n));
  if (isins.length) {
    const deps = buildDeps(env);
    const { db } = deps;
    try {
      const rows = await db
        .select({ ticker: listings.ticker })
        .from(listings)
        .innerJoin(assets, eq(assets.id, listings.assetId))
        .where(inArray(assets.isin, isins));
      tickers.push(...rows.map((r) => r.ticker));
      await forgetAdded(db, isins);
    } finally {
      await deps.close();
    }
  }
  await resetTickers(...tickers);
  const deps = buildDeps(env);
  const { db } = deps;
  try {
    if (tickers.length) await db.delete(realtimeSubscriptions).where(inArray(realtimeSubscriptions.ticker, tickers));
    // No refresh run, as on a new instance: run ids start again, so a run started after the reset
    // is the same run as one started after the reset before it.
    await db.execute(sql`TRUNCATE catalogue_refresh_runs, catalogue_refresh_items RESTART IDENTITY`);
    await db.execute(sql`TRUNCATE catalogue_imports, catalogue_import_lines RESTART IDENTITY`);
    // No managed key, as on a new instance (a key's name is taken while it is in force).
    await db.execute(sql`DELETE FROM api_keys`);
  } finally {
    await deps.close();
  }
  for (const t of tickers) {
    await exports.default.fetch(
      new Request(`http://svc/realtime/subscribe/${encodeURIComponent(t)}`, {
        method: "DELETE",
        headers: { "x-api-key": FULL_KEY },
      }),
    );
  }
}

/**
 * Instruments among `isins` that a request added (not the seed's) are taken out of the catalogue
 * again, with what is remembered of them, and the id sequences go back to the rows that remain, so
 * that adding one again gives it the same ids (the rows refer to each other by them).
 */
async function forgetAdded(db: ReturnType<typeof buildDeps>["db"], isins: readonly string[]): Promise<void> {
  const list = `{${isins.join(",")}}`;
  await db.execute(sql`DELETE FROM assets WHERE isin = ANY(${list}::text[]) AND added_via <> 'seed'`);
  await db.execute(
    sql`DELETE FROM catalogue_misses WHERE query = ANY(${`{${isins.map((i) => `isin:${i}`).join(",")}}`}::text[])`,
  );
  for (const table of ["assets", "listings"])
    await db.execute(
      sql.raw(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce((SELECT max(id) FROM ${table}), 0) + 1, false)`,
      ),
    );
}
