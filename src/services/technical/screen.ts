import { type ScreenMatch, screenSnapshots } from "../../db/repositories/indicator-snapshots";
import { countInstruments, readScreenBars } from "../../db/repositories/screen-bars";
import { toDecimalString } from "../../domain/decimal";
import { BadRequestError } from "../../domain/errors";
import { indicatorSpec } from "../../domain/indicators/catalogue";
import { HISTORY_BARS } from "../../domain/indicators/history";
import { paramsFromQuery, type Resolution } from "../../domain/indicators/request";
import { isSnapshotted, paramsKey } from "../../domain/indicators/snapshots";
import type { IndicatorSpec, Params } from "../../domain/indicators/spec";
import { OPERATORS, type Operator, type ScreenQuery } from "../../domain/screen-query";
import { answeredAtOnce } from "../../domain/screen-runs";
import { missingSession } from "../../domain/venues";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { type QueuedScreen, screenFromRun } from "./screen-runs";
import { type DailyResolution, lastValues, type ScreenReadPlan, screenReadPlan } from "./screen-values";

export interface ScreenResult {
  indicator: string;
  params: Params;
  operator: Operator;
  value: number;
  resolution: Resolution;
  matches: {
    ticker: string;
    name: string;
    isin: string;
    value: string;
    /** The last stored daily bar the value is computed to, and its close. */
    as_of: string;
    close: string | null;
    /** The venue's last closed session when the instrument's bars stop before it (its refresh is behind), else null. */
    missing_session: string | null;
  }[];
  total: number;
  /** Instruments whose last value was tested. */
  screened: number;
  /** Instruments without enough stored bars for the indicator, left out. */
  skipped: number;
  /** The queued run of the day the values come from; null when computed for this answer or read from the snapshots. */
  run_id: number | null;
  calculated_at: string;
}

/**
 * GET /technical/screen: the catalogue instruments whose last indicator value meets `operator value`,
 * the last value GET /technical/{ticker} gives (computed over the stored history, whatever the
 * window): from the snapshots for a declared indicator; else from each instrument's bars read at
 * once when they are few enough (SYNC_SCREEN_MAX_BARS), and beyond that from the day's queued run,
 * started by the first such request (answered as running until it finishes). Cached 15 minutes.
 */
export async function screen({
  ctx,
  input,
}: {
  ctx: Context;
  input: ScreenQuery;
}): Promise<ScreenResult | QueuedScreen> {
  const spec = indicatorSpec(input.indicator);
  if (!spec) throw new BadRequestError(`Unknown indicator '${input.indicator}'`);
  if (input.resolution === "1min" || spec.intradayOnly)
    throw new BadRequestError(
      "The screener runs on daily, weekly or monthly bars (resolution 1D, 1W or 1M); VWAP needs intraday bars",
    );
  const resolution = input.resolution;
  const parsed = paramsFromQuery(spec, { period: input.period });
  if (!parsed.ok) throw new BadRequestError(parsed.error);
  const params = parsed.value;
  const key = cacheKeys.screener(
    [spec.name, JSON.stringify(params), input.operator, input.value, input.resolution, input.limit, input.mode].join(
      ":",
    ),
  );
  const declared = resolution === "1D" && isSnapshotted(spec.name, params);
  const query = { ...input, resolution };
  // The cache is read first; a screen still computed in the background (202) is never kept, nor one
  // computed here: it is cut from its cached values (screenValues), so it is never older than they are.
  const build = async (): Promise<ScreenResult | QueuedScreen> => {
    if (declared) return screenSnapshotted(ctx, input, spec, params);
    const plan = screenReadPlan(spec, params, resolution);
    if (input.mode === "auto" && answeredAtOnce(await countInstruments(ctx.db), plan.read.bars))
      return runScreen(ctx, query, spec, params, plan);
    const fromRun = await screenFromRun(ctx, { query, spec, params, plan });
    return "status" in fromRun ? fromRun : resultOf(ctx, query, spec, params, fromRun);
  };
  const answer = await readThrough(ctx, {
    key,
    ttlSeconds: cacheTtls(ctx.config).screener,
    build,
    shouldCache: (built) => !("status" in built) && (declared || built.run_id !== null),
  });
  return answer.value;
}

/**
 * A declared indicator and length on daily bars: one indexed query over the snapshots written
 * after each listing's bars changed (the same values runScreen would compute).
 */
async function screenSnapshotted(
  ctx: Context,
  input: ScreenQuery,
  spec: IndicatorSpec,
  params: Params,
): Promise<ScreenResult> {
  const r = await screenSnapshots(ctx.db, {
    indicator: spec.name,
    params: paramsKey(params),
    windowBars: HISTORY_BARS,
    operator: input.operator,
    value: input.value,
    limit: input.limit,
  });
  return resultOf(ctx, { ...input, resolution: "1D" }, spec, params, {
    matches: r.matches,
    total: r.total,
    screened: r.screened,
    skipped: r.candidates - r.screened,
    runId: null,
  });
}

/**
 * The screen of any other indicator, length or resolution over few enough bars: every
 * instrument's preferred listing with only the bars its last value is computed over, in one read,
 * computed here.
 */
async function runScreen(
  ctx: Context,
  input: ScreenQuery & { resolution: DailyResolution },
  spec: IndicatorSpec,
  params: Params,
  plan: ScreenReadPlan,
): Promise<ScreenResult> {
  const { values, screened, skipped } = await screenValues(ctx, spec, params, plan, input.resolution);
  const test = OPERATORS[input.operator];
  const found = values.filter((v) => test(v.value, input.value));
  // Most extreme first: lowest values for lt/lte, highest for gt/gte; then by ticker and ISIN in
  // byte order (as the snapshot screen orders them).
  const sign = input.operator.startsWith("l") ? 1 : -1;
  const byBytes = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  found.sort((a, b) => sign * (a.value - b.value) || byBytes(a.ticker, b.ticker) || byBytes(a.isin, b.isin));
  return resultOf(ctx, input, spec, params, {
    matches: found.slice(0, input.limit),
    total: found.length,
    screened,
    skipped,
    runId: null,
  });
}

/** The last values of a screen computed here, as cached: what any operator, value and limit are cut from. */
interface ScreenValues {
  values: ScreenMatch[];
  screened: number;
  skipped: number;
}

/** Instruments whose last values are cached at most: a larger set is computed per request (within the synchronous budget). */
const MAX_CACHED_VALUES = 20_000;

/**
 * Every instrument's last value of one indicator, length and resolution, cached 15 minutes apart
 * from the query's operator, value and limit: another threshold is filtered out of the same
 * values and never reads the catalogue's bars again.
 */
async function screenValues(
  ctx: Context,
  spec: IndicatorSpec,
  params: Params,
  plan: ScreenReadPlan,
  resolution: DailyResolution,
): Promise<ScreenValues> {
  const built = await readThrough(ctx, {
    key: cacheKeys.screener(["values", spec.name, JSON.stringify(params), resolution].join(":")),
    ttlSeconds: cacheTtls(ctx.config).screener,
    shouldCache: (v) => v.values.length <= MAX_CACHED_VALUES,
    build: async (): Promise<ScreenValues> => {
      const rows = await readScreenBars(ctx.db, plan.read);
      const { values, skipped } = lastValues(rows, spec, params, plan);
      return {
        values: values.map(({ row, value, last }) => ({
          ticker: row.ticker,
          name: row.name,
          isin: row.isin,
          exchange: row.exchange,
          value,
          asOf: last.date,
          close: toDecimalString(last.close),
        })),
        screened: rows.length - skipped,
        skipped,
      };
    },
  });
  return built.value;
}

/** The answer of every path: the query, the matches with their values as decimal strings, the counts. */
function resultOf(
  ctx: Context,
  input: ScreenQuery & { resolution: DailyResolution },
  spec: IndicatorSpec,
  params: Params,
  r: {
    matches: readonly ScreenMatch[];
    total: number;
    screened: number;
    skipped: number;
    runId: number | null;
  },
): ScreenResult {
  return {
    indicator: spec.name,
    params,
    operator: input.operator,
    value: input.value,
    resolution: input.resolution,
    matches: r.matches.map((m) => ({
      ticker: m.ticker,
      name: m.name,
      isin: m.isin,
      value: toDecimalString(m.value),
      as_of: m.asOf,
      close: m.close === null ? null : toDecimalString(Number(m.close)),
      missing_session: missingSession(m.exchange, m.asOf, ctx.clock.now()),
    })),
    total: r.total,
    screened: r.screened,
    skipped: r.skipped,
    run_id: r.runId,
    calculated_at: ctx.clock.now().toISOString(),
  };
}
