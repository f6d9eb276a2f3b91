import Decimal from "decimal.js";
import type { EarningsRow, TrendRow } from "../delayed-figures";
import type { Section, Sources } from "./place";

export interface EarningsInput {
  history: Omit<EarningsRow, "period">[];
  trend: TrendRow[];
  /** Fiscal years' diluted EPS from the stored income statements. */
  annual: { date: string; epsActual: number }[];
  currency: string | null;
}

const decString = (x: number | null, dp = 4) => (x === null ? null : new Decimal(x).toFixed(dp));

/**
 * Earnings: History and Annual keyed by period end; Trend keyed by its end date, the horizon added
 * to the key when two horizons end the same day (a quarter ending with the fiscal year), so no
 * entry hides another.
 */
export function renderEarnings(input: EarningsInput, label: string | null, sources: Sources): Section {
  const history = Object.fromEntries(
    [...input.history]
      .sort((a, b) => (a.quarterEnd < b.quarterEnd ? 1 : -1))
      .map((h) => [
        h.quarterEnd,
        {
          reportDate: null,
          date: h.quarterEnd,
          beforeAfterMarket: null,
          currency: input.currency,
          epsActual: h.epsActual,
          epsEstimate: h.epsEstimate,
          epsDifference: h.epsDifference,
          surprisePercent: h.surprisePercent,
        },
      ]),
  );
  const trend: Section = {};
  for (const t of input.trend) {
    const date = t.endDate ?? t.period;
    const key = date in trend ? `${date}_${t.period}` : date;
    trend[key] = {
      date,
      period: t.period,
      growth: decString(t.growth),
      earningsEstimateAvg: decString(t.epsAvg),
      earningsEstimateLow: decString(t.epsLow),
      earningsEstimateHigh: decString(t.epsHigh),
      earningsEstimateNumberOfAnalysts: decString(t.analysts),
      revenueEstimateAvg: decString(t.revenueAvg, 2),
    };
  }
  const annual = Object.fromEntries(input.annual.map((a) => [a.date, { date: a.date, epsActual: a.epsActual }]));
  if (label) {
    const labels: Record<string, string> = {};
    if (Object.keys(history).length) labels.History = label;
    if (Object.keys(trend).length) labels.Trend = label;
    if (Object.keys(annual).length) labels.Annual = label;
    if (Object.keys(labels).length) sources.Earnings = labels;
  }
  return { History: history, Trend: trend, Annual: annual };
}
