import { recordVerdicts } from "../../db/repositories/validation-results";
import { uniqueDrifts } from "../../domain/drift";
import { NoDataError } from "../../domain/errors";
import { STATEMENT_MODULE, type StatementKind, statementRows } from "../../domain/fundamentals/statements";
import { driftVerdict } from "../../domain/fundamentals/validation";
import { addDays } from "../../domain/instants";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { readThrough } from "../shared/read-through";

type Row = Record<string, number | string | null>;
export interface LegacyFinancials {
  symbol: string;
  source: "delayed_provider";
  statements: Record<StatementKind, { annual: Row[]; quarterly: Row[] }>;
}

/**
 * Legacy GET /stocks/{ticker}/financials: the delayed provider's statements for the symbol as typed
 * (spec Versioning: not the catalogue's verified symbol), annual and quarterly, cached one hour.
 */
export async function getLegacyFinancials({
  ctx,
  input,
}: {
  ctx: Context;
  input: { symbol: string };
}): Promise<LegacyFinancials> {
  const { symbol } = input;
  const load = async (): Promise<LegacyFinancials> => {
    const today = ctx.clock.today();
    const from = new Date(`${addDays(today, -365 * 7)}T00:00:00Z`);
    const to = new Date(`${addDays(today, 1)}T00:00:00Z`);
    const kinds = ["income", "balance", "cashflow"] as const;
    const periods = ["annual", "quarterly"] as const;
    const calls = kinds.flatMap((k) => periods.map((p) => ({ k, p })));
    let series: Awaited<ReturnType<typeof ctx.providers.delayedFundamentals.timeseries>>[];
    try {
      series = await Promise.all(
        calls.map((c) => ctx.providers.delayedFundamentals.timeseries(symbol, STATEMENT_MODULE[c.k], c.p, from, to)),
      );
    } catch (err) {
      if (err instanceof ProviderError && err.failure === "not_found")
        throw new NoDataError(`No statements found for ${symbol}`, err.detail);
      throw err;
    }
    // A format change is reported as the enrichment reports it (the figures it cost are simply absent).
    const drifts = uniqueDrifts(series.flatMap((s) => s.drifts));
    if (drifts.length)
      await recordVerdicts(ctx.db, {
        ticker: symbol,
        day: today,
        at: ctx.clock.now(),
        verdicts: drifts.map(driftVerdict),
      });
    const statements = {
      income: { annual: [], quarterly: [] },
      balance: { annual: [], quarterly: [] },
      cashflow: { annual: [], quarterly: [] },
    } as LegacyFinancials["statements"];
    calls.forEach((c, i) => {
      statements[c.k][c.p] = statementRows(series[i]?.value ?? []).map((r) => ({
        period_end: r.periodEnd,
        ...r.items,
      }));
    });
    if (series.every((s) => s.value.length === 0))
      throw new NoDataError(
        `No statements found for ${symbol}`,
        `the delayed provider publishes no statements for ${symbol}`,
      );
    return { symbol, source: "delayed_provider", statements };
  };
  const key = cacheKeys.fundamentals(`legacy:${symbol}`);
  return (await readThrough(ctx, { key, ttlSeconds: cacheTtls(ctx.config).fundamentals, build: load })).value;
}
