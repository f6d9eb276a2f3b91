import { type SQL, sql } from "drizzle-orm";
import { screenRowPosition } from "../../domain/indicators/screen-row";
import { SNAPSHOT_FORMULA, SNAPSHOT_SET } from "../../domain/indicators/snapshots";
import type { Comparison, Condition, NumberTerm, TextField } from "../../domain/screen-conditions";
import { indicatorTerms, readsFigures } from "../../domain/screen-conditions";
import type { FigureField } from "../../domain/screen-figures";
import type { Db } from "../client";

/** The SQL of each comparison, text field and figure: fixed text, never the caller's. */
const OPS: Record<Exclude<Comparison, "=">, SQL> = { "<": sql`<`, "<=": sql`<=`, ">": sql`>`, ">=": sql`>=` };
const FIELDS: Record<TextField, { column: SQL; reads: "listing" | "asset" | null }> = {
  sector: { column: sql`a.sector`, reads: "asset" },
  exchange: { column: sql`l.exchange`, reads: "listing" },
  currency: { column: sql`r.currency`, reads: null },
  quote_type: { column: sql`a.quote_type`, reads: "asset" },
};
const FIGURES: Record<FigureField, SQL> = {
  market_cap: sql`f.market_cap`,
  pe_ratio: sql`f.pe_ratio`,
  dividend_yield: sql`f.dividend_yield`,
};

/**
 * Where the values of the one indicator term no snapshot holds come from: the day's finished run of
 * it, or values computed for this screen (by instrument).
 */
export type UnkeptValues = { runId: number } | { assetIds: readonly number[]; values: readonly number[] };

export interface ConditionsScreen {
  conditions: readonly Condition[];
  /** The history snapshots are computed over (HISTORY_BARS). */
  windowBars: number;
  limit: number;
  /** The values of the term no snapshot holds, when a condition reads one. */
  unkept?: UnkeptValues;
}

/** A SQL array literal, each number as its shortest exact text. */
const arrayText = (xs: readonly number[]) => `{${xs.map((x) => String(x)).join(",")}}`;

export interface ConditionsRow {
  ticker: string;
  name: string;
  isin: string;
  exchange: string | null;
  currency: string | null;
  asOf: string;
  /** The last bar's close as stored (a decimal text); null if that bar is gone since. */
  close: string | null;
  /** Each indicator term's and figure's value, by its key. */
  values: Record<string, number | null>;
  /** The stored figures' fetch date, when a condition read them. */
  figuresAsOf: string | null;
}

export interface ConditionsResult {
  /** Instruments of the catalogue with a screen row (each once, its preferred listing). */
  screened: number;
  total: number;
  rows: ConditionsRow[];
}

/** The joins, tests and term expressions of a screen's conditions over the screen rows `r`. */
function conditionsSql(q: Pick<ConditionsScreen, "conditions" | "windowBars" | "unkept">) {
  const figures = readsFigures(q.conditions);
  const texts = q.conditions.flatMap((c) => (c.kind === "text" ? [FIELDS[c.field].reads] : []));
  const place = (t: { indicator: string; paramsKey: string; snapshotted: boolean }) => {
    if (!t.snapshotted) return sql`xv.value`;
    const at = screenRowPosition(t.indicator, t.paramsKey);
    // The parser marks what is snapshotted: a snapshotted term without a place is a bug, not input.
    if (at === null) throw new Error(`${t.indicator} ${t.paramsKey} has no place in a screen row`);
    return sql.raw(`r.values[${at}]`);
  };
  const termSql = (t: NumberTerm | number): SQL => {
    if (typeof t === "number") return sql`${t}::float8`;
    if (t.kind === "close") return sql`r.close`;
    if (t.kind === "figure") return FIGURES[t.key];
    return place(t);
  };
  const joins: SQL[] = [];
  if (texts.includes("listing")) joins.push(sql`JOIN listings l ON l.id = r.listing_id`);
  if (texts.includes("asset")) joins.push(sql`JOIN assets a ON a.id = r.asset_id`);
  if (figures) joins.push(sql`JOIN screen_figures f ON f.asset_id = r.asset_id AND f.currency = r.currency`);
  const unkept = q.unkept;
  if (unkept && "runId" in unkept)
    joins.push(sql`JOIN screen_run_values xv ON xv.run_id = ${unkept.runId} AND xv.asset_id = r.asset_id`);
  else if (unkept)
    joins.push(
      sql`JOIN unnest(${arrayText(unkept.assetIds)}::int[], ${arrayText(unkept.values)}::float8[]) AS xv(asset_id, value) ON xv.asset_id = r.asset_id`,
    );
  const tests = q.conditions.map((c) =>
    c.kind === "text"
      ? sql`${FIELDS[c.field].column} = ${c.value}`
      : sql`${termSql(c.left)} ${OPS[c.op]} ${termSql(c.right)}`,
  );
  // A row of another arithmetic or layout (a set of another length) is not read until rewritten.
  const rows = sql`r.preferred AND r.formula = ${SNAPSHOT_FORMULA} AND r.window_bars = ${q.windowBars}
    AND array_length(r.values, 1) = ${SNAPSHOT_SET.length}`;
  return { figures, place, termSql, joins, tests, rows };
}

/**
 * The listings (each instrument's preferred one) meeting every condition: the candidates of a
 * term no snapshot holds, computed over them alone when they are few enough.
 */
export async function conditionCandidates(db: Db, q: Omit<ConditionsScreen, "limit" | "unkept">): Promise<number[]> {
  const { joins, tests, rows } = conditionsSql(q);
  const result = await db.execute<{ id: number }>(sql`
    SELECT r.listing_id AS id FROM screen_rows r ${sql.join(joins, sql` `)}
    WHERE ${rows} ${tests.length ? sql`AND ${sql.join(tests, sql` AND `)}` : sql``}`);
  return result.rows.map((r) => r.id);
}

/**
 * A screen of several conditions in one statement over the screen rows (one per listing, every
 * snapshot side by side with the last close): each instrument once (its preferred listing's row),
 * each indicator term its place in the row (one no snapshot holds: its values, joined by instrument), a figure the instrument's row in the listing's
 * currency; the listing and instrument are joined only for a condition on their fields. One pass
 * over the rows, no lookup per instrument. Answers the counts and the first `limit` matches,
 * ordered by the first comparison's left term (lowest first for < and <=), then ticker and ISIN:
 * the matches up to the `limit`-th value, then their names and exact closes.
 */
export async function screenConditions(db: Db, q: ConditionsScreen): Promise<ConditionsResult> {
  const terms = indicatorTerms(q.conditions);
  const { figures, place, termSql, joins, tests, rows } = conditionsSql(q);
  const first = q.conditions.find((c) => c.kind === "compare");
  const rank = first?.kind === "compare" ? termSql(first.left) : sql`0::float8`;
  const low = first?.kind === "compare" && first.op.startsWith("<");
  const direction = low ? sql`ASC` : sql`DESC`;
  // Each value a column of the matches (v0, v1, ...), named in the JSON of the answered ones only.
  const values: [string, SQL][] = [
    ...terms.map((t): [string, SQL] => [t.key, place(t)]),
    ...(figures ? (Object.keys(FIGURES) as FigureField[]).map((k): [string, SQL] => [k, FIGURES[k]]) : []),
  ];
  const column = (i: number) => sql.raw(`v${i}`);
  const result = await db.execute<{ screened: number; total: number; rows: ConditionsRow[] | null }>(sql`
    WITH hit AS MATERIALIZED (
      SELECT r.listing_id, r.as_of, ${sql.join(
        values.map(([, v], i) => sql`${v} AS ${column(i)}, `),
        sql``,
      )} ${figures ? sql`f.as_of` : sql`NULL::date`} AS figures_as_of, ${rank} AS rank
      FROM screen_rows r ${sql.join(joins, sql` `)}
      WHERE ${rows} AND ${sql.join(tests, sql` AND `)}
    ), edge AS (
      SELECT rank FROM hit ORDER BY rank ${direction} OFFSET ${q.limit - 1} LIMIT 1
    )
    SELECT (SELECT count(*) FROM screen_rows r WHERE ${rows})::int AS screened,
           (SELECT count(*) FROM hit)::int AS total,
           (SELECT json_agg(json_build_object('ticker', m.ticker, 'name', m.name, 'isin', m.isin, 'exchange', m.exchange,
                                              'currency', m.currency, 'asOf', m.as_of, 'figuresAsOf', m.figures_as_of,
                                              'values', json_build_object(${sql.join(
                                                values.map(([k], i) => sql`${k}::text, m.${column(i)}`),
                                                sql`, `,
                                              )}),
                                              'close', (SELECT d.close::text FROM prices_daily d
                                                        WHERE d.listing_id = m.listing_id AND d.date = m.as_of))
                             ORDER BY m.rank ${direction}, m.ticker COLLATE "C", m.isin)
            FROM (SELECT h.*, x.* FROM hit h
                  -- OFFSET 0 keeps each name a lookup of its listing, never a scan of them all.
                  CROSS JOIN LATERAL (SELECT l.ticker, l.name, l.exchange, l.currency, a.isin
                                      FROM listings l JOIN assets a ON a.id = l.asset_id
                                      WHERE l.id = h.listing_id OFFSET 0) x
                  WHERE NOT EXISTS (SELECT 1 FROM edge) OR h.rank ${low ? sql`<=` : sql`>=`} (SELECT rank FROM edge)
                  ORDER BY h.rank ${direction}, x.ticker COLLATE "C", x.isin LIMIT ${q.limit}) m)
             AS rows`);
  const row = result.rows[0];
  return { screened: row?.screened ?? 0, total: row?.total ?? 0, rows: row?.rows ?? [] };
}
