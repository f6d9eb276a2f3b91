import { readScreenBars } from "../../db/repositories/screen-bars";
import { conditionCandidates, screenConditions, type UnkeptValues } from "../../db/repositories/screen-conditions";
import { toDecimalString } from "../../domain/decimal";
import { BadRequestError } from "../../domain/errors";
import { indicatorSpec } from "../../domain/indicators/catalogue";
import { HISTORY_BARS } from "../../domain/indicators/history";
import { type Condition, indicatorTerms, parseWhere } from "../../domain/screen-conditions";
import { answeredAtOnce } from "../../domain/screen-runs";
import { missingSession } from "../../domain/venues";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { dayRun, finishedDayRun, type QueuedScreen, queuedAnswer } from "./screen-runs";
import { lastValues, screenReadPlan } from "./screen-values";

export interface ConditionsAnswer {
  where: string;
  matches: {
    ticker: string;
    name: string;
    isin: string;
    currency: string | null;
    as_of: string;
    close: string | null;
    /** Each indicator term's last value, the stored figures when a condition reads one, and the close, as decimal strings. */
    values: Record<string, string | null>;
    /** The day the stored figures were fetched, when a condition reads them. */
    figures_as_of: string | null;
    missing_session: string | null;
  }[];
  total: number;
  screened: number;
  calculated_at: string;
}

/**
 * GET /technical/screen/conditions: the catalogue instruments meeting every condition of `where`
 * (snapshotted indicators, the last close, the stored market capitalisation, P/E and dividend
 * yield, the instrument's sector, exchange, currency and quote type), each with the values it was
 * tested on. One indicator no snapshot holds may be a term: its values come from the day's finished
 * run of it, else are computed over the instruments the other conditions leave when their bars are
 * few enough (SYNC_SCREEN_MAX_BARS), else the day's run is started and the answer is a 202. Cached
 * like the single-condition screen (a 202 never).
 */
export async function screenByConditions({
  ctx,
  input,
}: {
  ctx: Context;
  input: { where: string; limit: number };
}): Promise<ConditionsAnswer | QueuedScreen> {
  const parsed = parseWhere(input.where);
  if (!parsed.ok) throw new BadRequestError(parsed.error);
  const conditions = parsed.conditions;
  const build = async (): Promise<ConditionsAnswer | QueuedScreen> => {
    const unkept = await unkeptValues(ctx, conditions);
    if (unkept && "status" in unkept) return unkept;
    const r = await screenConditions(ctx.db, {
      conditions,
      windowBars: HISTORY_BARS,
      limit: input.limit,
      ...(unkept ? { unkept } : {}),
    });
    const now = ctx.clock.now();
    return {
      where: input.where,
      matches: r.rows.map((m) => {
        const close = m.close === null ? null : toDecimalString(Number(m.close));
        return {
          ticker: m.ticker,
          name: m.name,
          isin: m.isin,
          currency: m.currency,
          as_of: m.asOf,
          close,
          values: {
            ...Object.fromEntries(
              Object.entries(m.values).map(([k, v]) => [k, v === null ? null : toDecimalString(Number(v))]),
            ),
            close,
          },
          figures_as_of: m.figuresAsOf,
          missing_session: missingSession(m.exchange, m.asOf, now),
        };
      }),
      total: r.total,
      screened: r.screened,
      calculated_at: now.toISOString(),
    };
  };
  // The text as asked: a value's case matters (sector = Technology).
  const key = cacheKeys.screener(`conditions:${input.limit}:${input.where}`);
  return (
    await readThrough(ctx, {
      key,
      ttlSeconds: cacheTtls(ctx.config).screener,
      build,
      shouldCache: (built) => !("status" in built),
    })
  ).value;
}

/**
 * The values of the one indicator term no snapshot holds, if any: the day's finished run of it;
 * else computed over the instruments meeting the other conditions when they are few enough; else
 * the day's run, as it stands (a 202).
 */
async function unkeptValues(
  ctx: Context,
  conditions: readonly Condition[],
): Promise<UnkeptValues | QueuedScreen | null> {
  const term = indicatorTerms(conditions).find((t) => !t.snapshotted);
  const spec = term ? indicatorSpec(term.indicator) : undefined;
  if (!term || !spec) return null;
  const done = await finishedDayRun(ctx, { indicator: term.indicator, params: term.paramsKey, resolution: "1D" });
  if (done) return { runId: done.id };
  const reads = (c: Condition) =>
    c.kind === "compare" &&
    [c.left, c.right].some((t) => typeof t !== "number" && t.kind === "indicator" && t.key === term.key);
  const others = conditions.filter((c) => !reads(c));
  const candidates = await conditionCandidates(ctx.db, { conditions: others, windowBars: HISTORY_BARS });
  const plan = screenReadPlan(spec, term.params, "1D");
  if (answeredAtOnce(candidates.length, plan.read.bars)) {
    const rows = await readScreenBars(ctx.db, { ...plan.read, only: candidates });
    const { values } = lastValues(rows, spec, term.params, plan);
    return { assetIds: values.map((v) => v.row.assetId), values: values.map((v) => v.value) };
  }
  const state = await dayRun(ctx, { spec, params: term.params, resolution: "1D", plan });
  if (state.finishedAt) return { runId: state.id };
  return queuedAnswer(
    state,
    `the ${candidates.length} instruments the other conditions leave read more bars than an answer reads at once`,
  );
}
