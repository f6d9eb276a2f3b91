import { highlightFigures } from "../../domain/fundamentals/delayed-figures";
import { SCRAPED_FIELDS } from "../../domain/fundamentals/fields";
import type { ScrapeTarget } from "../../domain/fundamentals/scraped-page";
import type { Verdict } from "../../domain/fundamentals/validation";
import {
  type CanaryAnswer,
  type CanaryCheck,
  canaryChecks,
  type Observation,
} from "../../domain/monitoring/canary-checks";
import type { CanaryInstrument } from "../../domain/monitoring/canary-references";
import { DELAYED, type FundamentalProvider } from "../../domain/provider-names";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** The quoteSummary modules that carry the highlights the canary checks. */
const DELAYED_MODULES = ["price", "summaryDetail", "defaultKeyStatistics", "financialData"] as const;

async function askDelayed(ctx: Context, inst: CanaryInstrument): Promise<CanaryAnswer> {
  const { value: summary, drifts } = await ctx.providers.delayedFundamentals.summary(inst.symbol, DELAYED_MODULES);
  const figures = highlightFigures(summary);
  return {
    problem: null,
    drifts,
    observations: Object.keys(inst.expected).map((field) => {
      const f = figures.find((x) => x.field === field);
      return { field, value: f?.value ?? null, unit: f?.unit ?? "ratio" };
    }),
  };
}

async function askScraped(ctx: Context, name: string, inst: CanaryInstrument): Promise<CanaryAnswer | null> {
  const provider = ctx.providers.scraped.find((p) => p.name === name);
  const target: ScrapeTarget = { isin: inst.isin, ticker: inst.ticker, currency: inst.currency, kind: "share" };
  if (!provider?.covers(target)) return null;
  const page = await provider.read(target);
  if (page.isin !== inst.isin)
    return { observations: [], problem: `the page is about ${page.isin ?? "no named instrument"}, not ${inst.isin}` };
  const observations: Observation[] = [];
  for (const field of SCRAPED_FIELDS) {
    if (!inst.expected[field]) continue;
    const f = page.figures[field];
    // An EPS in another currency is not this listing's EPS: as good as absent.
    const foreign = field === "eps_ttm" && f?.currency && f.currency !== inst.currency;
    observations.push({ field, value: foreign ? null : (f?.value ?? null), unit: f?.unit ?? "ratio" });
  }
  return { observations, problem: null, drifts: page.drifts };
}

/** The checks of one provider on one instrument, with the verdicts of the validation layer; null when it does not cover it. */
export async function probe(
  ctx: Context,
  provider: FundamentalProvider,
  inst: CanaryInstrument,
  at: Date,
): Promise<{ checks: CanaryCheck[]; verdicts: Verdict[] } | null> {
  const started = ctx.clock.now().getTime();
  let answer: CanaryAnswer | null;
  try {
    answer = provider === DELAYED ? await askDelayed(ctx, inst) : await askScraped(ctx, provider, inst);
  } catch (err) {
    // A monitoring job reports what broke rather than stopping: a bug of ours is a failed check too.
    if (!(err instanceof ProviderError)) console.error("canary: unexpected error", provider, inst.ticker, err);
    answer = {
      observations: [],
      problem: err instanceof ProviderError ? `${err.failure}: ${err.detail}` : `unexpected error: ${String(err)}`,
    };
  }
  if (answer === null) return null;
  return canaryChecks(provider, inst, answer, Math.max(0, ctx.clock.now().getTime() - started), at);
}
