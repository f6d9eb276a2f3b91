import { type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import type { Summary } from "../../domain/fundamentals/delayed-figures";
import {
  STATEMENT_MODULE,
  type StatementKind,
  type StatementPeriod,
  type StatementRow,
  statementRows,
} from "../../domain/fundamentals/statements";
import { addDays } from "../../domain/instants";
import type { Context } from "../../platform/context";
import type { QuoteSummaryModule } from "../../providers/delayed/fundamentals";

/** The quoteSummary modules asked of a company and of a fund (the statement modules are near-empty: timeseries instead). */
const COMPANY_MODULES: QuoteSummaryModule[] = [
  "price",
  "summaryDetail",
  "defaultKeyStatistics",
  "financialData",
  "assetProfile",
  "earningsHistory",
  "earningsTrend",
  "recommendationTrend",
  "majorHoldersBreakdown",
  "institutionOwnership",
  "fundOwnership",
  "calendarEvents",
];
const FUND_MODULES: QuoteSummaryModule[] = [
  "price",
  "summaryDetail",
  "defaultKeyStatistics",
  "fundProfile",
  "topHoldings",
];

/** How far back statements are asked for: the provider answers its last ~5 years or 6 quarters whatever the window. */
const STATEMENT_YEARS = 7;

export interface DelayedFundamentals {
  symbol: string;
  summary: Summary;
  statements: { statement: StatementKind; period: StatementPeriod; rows: StatementRow[] }[];
  /** Where the answers departed from the format the service reads (those fields were left out). */
  drifts: SchemaDrift[];
}

/**
 * Everything the delayed provider publishes about `symbol`: the quoteSummary modules and, for a
 * company, the three statements annual and quarterly from fundamentals-timeseries, all at once.
 * Any provider failure rejects the whole (an enrichment is stored complete or not at all); a field
 * of another shape costs that field only and is reported in `drifts`.
 */
export async function fetchDelayedFundamentals(
  ctx: Context,
  symbol: string,
  kind: "company" | "fund",
): Promise<DelayedFundamentals> {
  const client = ctx.providers.delayedFundamentals;
  const today = ctx.clock.today();
  const from = new Date(`${addDays(today, -365 * STATEMENT_YEARS)}T00:00:00Z`);
  const to = new Date(`${addDays(today, 1)}T00:00:00Z`);
  const wanted: { statement: StatementKind; period: StatementPeriod }[] =
    kind === "fund"
      ? []
      : (["income", "balance", "cashflow"] as const).flatMap((statement) =>
          (["annual", "quarterly"] as const).map((period) => ({ statement, period })),
        );
  const [summary, series] = await Promise.all([
    client.summary(symbol, kind === "fund" ? FUND_MODULES : COMPANY_MODULES),
    Promise.all(wanted.map((w) => client.timeseries(symbol, STATEMENT_MODULE[w.statement], w.period, from, to))),
  ]);
  return {
    symbol,
    summary: summary.value,
    statements: wanted.map((w, i) => ({ ...w, rows: statementRows(series[i]?.value ?? []) })),
    drifts: uniqueDrifts([...summary.drifts, ...series.flatMap((s) => s.drifts)]),
  };
}
