import { type SQL, sql } from "drizzle-orm";
import type { Comparison, Condition, NumberTerm, TextField } from "../../domain/screen-conditions";
import { indicatorTerms } from "../../domain/screen-conditions";
import type { Db } from "../client";

/** The SQL of each comparison and text field: fixed text, never the caller's. */
const OPS: Record<Exclude<Comparison, "=">, SQL> = { "<": sql`<`, "<=": sql`<=`, ">": sql`>`, ">=": sql`>=` };
const FIELDS: Record<TextField, SQL> = {
  sector: sql`a.sector`,
  exchange: sql`l.exchange`,
  currency: sql`l.currency`,
  quote_type: sql`a.quote_type`,
};

export interface ConditionsScreen {
  conditions: readonly Condition[];
  /** The history snapshots are computed over (HISTORY_BARS). */
  windowBars: number;
  limit: number;
}

export interface ConditionsRow {
  ticker: string;
  name: string;
  isin: string;
  exchange: string | null;
  asOf: string;
  close: string;
  /** Each indicator term's last value, by its full key. */
  values: Record<string, number>;
}

export interface ConditionsResult {
  /** Instruments of the catalogue with every indicator the conditions read computable. */
  screened: number;
  total: number;
  rows: ConditionsRow[];
}

/**
 * A screen of several conditions in one statement: each instrument once (its preferred listing),
 * each indicator term its snapshot (joined by the snapshot's key, the first through the partial
 * index of preferred rows), the last close its last stored bar's; the counts and the first `limit`
 * matches, ordered by the first condition's left term (lowest first for < and <=), then ticker and ISIN.
 */
export async function screenConditions(db: Db, q: ConditionsScreen): Promise<ConditionsResult> {
  const terms = indicatorTerms(q.conditions);
  // Each indicator term's snapshot row is joined as t0, t1, ... in the order of `terms`.
  const alias = new Map(terms.map((t, i) => [t.key, sql.raw(`t${i}`)]));
  const termSql = (t: NumberTerm | number): SQL => {
    if (typeof t === "number") return sql`${t}::float8`;
    if (t.kind === "close") return sql`lb.close::float8`;
    return sql`${alias.get(t.key)}.value`;
  };
  const joins = sql.join(
    terms.map((t) => {
      const a = alias.get(t.key);
      return sql`JOIN indicator_snapshots ${a} ON ${a}.listing_id = l.id AND ${a}.indicator = ${t.indicator}
        AND ${a}.params = ${t.paramsKey} AND ${a}.window_bars = ${q.windowBars} AND ${a}.computable`;
    }),
    sql` `,
  );
  const tests = q.conditions.map((c) =>
    c.kind === "text" ? sql`${FIELDS[c.field]} = ${c.value}` : sql`${termSql(c.left)} ${OPS[c.op]} ${termSql(c.right)}`,
  );
  const first = q.conditions.find((c) => c.kind === "compare");
  const rank = first?.kind === "compare" ? termSql(first.left) : sql`0`;
  const direction = first?.kind === "compare" && first.op.startsWith("<") ? sql`ASC` : sql`DESC`;
  const values = sql.join(
    terms.map((t) => sql`${t.key}::text, ${alias.get(t.key)}.value`),
    sql`, `,
  );
  const result = await db.execute<{ screened: number; total: number; rows: ConditionsRow[] | null }>(sql`
    WITH c AS MATERIALIZED (
      SELECT l.ticker, l.name, l.exchange, a.isin, lb.date AS as_of, lb.close::text AS close,
             ${terms.length ? sql`json_build_object(${values})` : sql`'{}'::json`} AS vals,
             (${sql.join(tests, sql` AND `)}) AS hit,
             ${rank} AS rank
      FROM listings l JOIN assets a ON a.id = l.asset_id
      ${joins}
      JOIN LATERAL (SELECT d.date, d.close FROM prices_daily d WHERE d.listing_id = l.id ORDER BY d.date DESC LIMIT 1) lb ON true
      WHERE l.preferred
    )
    SELECT (SELECT count(*) FROM c)::int AS screened,
           (SELECT count(*) FROM c WHERE hit)::int AS total,
           (SELECT json_agg(json_build_object('ticker', m.ticker, 'name', m.name, 'isin', m.isin, 'exchange', m.exchange,
                                              'asOf', m.as_of, 'close', m.close, 'values', m.vals)
                             ORDER BY m.rank ${direction}, m.ticker COLLATE "C", m.isin)
            FROM (SELECT * FROM c WHERE hit ORDER BY rank ${direction}, ticker COLLATE "C", isin LIMIT ${q.limit}) m)
             AS rows`);
  const row = result.rows[0];
  return { screened: row?.screened ?? 0, total: row?.total ?? 0, rows: row?.rows ?? [] };
}
