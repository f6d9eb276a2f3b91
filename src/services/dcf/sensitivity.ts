import type Decimal from "decimal.js";
import { upsidePct } from "../../domain/dcf/numbers";
import { sensitivityGrid } from "../../domain/dcf/sensitivity";
import { NoDataError } from "../../domain/errors";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { money, percent, ratio } from "./present";
import { awaitsRate } from "./valuation-currency";
import { subjectOf, valuationOf } from "./value-ticker";

export interface SensitivityQuery {
  ticker: string;
  /** The models with a Gordon terminal value: fcf (rows are the WACC) and ddm (rows are the cost of equity). */
  model: "fcf" | "ddm";
  rates: Decimal[];
  growths: Decimal[];
  forceRefresh: boolean;
}

async function buildGrid(ctx: Context, q: SensitivityQuery, onValued: (waits: boolean) => void) {
  const { inputs, valued, valuation } = await valuationOf(ctx, { ticker: q.ticker, models: [q.model] });
  onValued(awaitsRate(inputs.currency, inputs.reportingCurrency, valued.conversion));
  if (q.model === "ddm" && valuation.company.dividend === null)
    throw new NoDataError(
      `${inputs.instrument.listing.ticker} pays no dividend`,
      "the ddm model values dividends: use model=fcf",
    );
  const grid = sensitivityGrid(q.rates, q.growths, (w, g) => valuation.at(q.model, w, g));
  const base = valuation.results[0];
  return {
    ...subjectOf(inputs, valued),
    model: q.model,
    wacc_range: q.rates.map((r) => ratio(r) as string),
    growth_range: q.growths.map((g) => ratio(g) as string),
    matrix: grid.map((row) =>
      row.map((c) => ({
        wacc: ratio(c.wacc) as string,
        growth: ratio(c.growth) as string,
        intrinsic_value_per_share: money(c.value),
        upside_pct: percent(c.value === null ? null : upsidePct(c.value, valued.subject.price)),
        ...(c.reason ? { reason: c.reason } : {}),
      })),
    ),
    /** The model at the valuation's own rate and the default terminal growth, for reference. */
    base_case: {
      discount_rate: ratio(base?.discountRate ?? null),
      intrinsic_value_per_share: money(base?.value ?? null),
    },
    computed_at: ctx.clock.now().toISOString(),
    cache_hit: false,
  };
}
export type SensitivityAnswer = Awaited<ReturnType<typeof buildGrid>>;

/** GET /dcf/{ticker}/sensitivity: the model's value per share over discount rates (rows) x terminal growths (columns), cached 6 hours. */
export async function dcfSensitivity({
  ctx,
  input,
}: {
  ctx: Context;
  input: SensitivityQuery;
}): Promise<SensitivityAnswer> {
  const variant = `sensitivity:${input.model}:${input.rates.map(String).join(",")}:${input.growths.map(String).join(",")}`;
  const key = cacheKeys.dcf(input.ticker, variant);
  const ttl = cacheTtls(ctx.config).dcf;
  // A grid whose price waits for the ECB's rate (none yet, or a stand-in's) is not kept.
  let waits = false;
  const { value, hit } = await readThrough(ctx, {
    key,
    ttlSeconds: ttl,
    fresh: input.forceRefresh,
    build: () =>
      buildGrid(ctx, input, (w) => {
        waits = w;
      }),
    shouldCache: () => !waits,
  });
  return hit ? { ...value, cache_hit: true } : value;
}
