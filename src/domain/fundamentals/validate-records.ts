import type { EarningsRow, FundDetails, TrendRow } from "./delayed-figures";
import type { StatementKind, StatementPeriod, StatementRow } from "./statements";
import { type Verdict, validate } from "./validation";

/**
 * The validation layer on the rows of the deep enrichment (statement lines, earnings history and
 * trend, a fund's weights): every number passes `validate` with its field's rule before it is
 * stored, a refused one is stored as null (a row keeps its other figures), and each field gets one
 * verdict for the day: the first refusal among its rows, else the newest row's valid verdict, so a
 * statement of 150 lines over 5 years costs 150 verdicts, not 750. Pure.
 */

export interface Checked<T> {
  value: T;
  verdicts: Verdict[];
}

/** One field's verdicts over its rows as one: a refusal names its row; else the first (newest) valid one. */
function folded(byField: Map<string, { row: string; verdict: Verdict }[]>): Verdict[] {
  return [...byField.values()].flatMap((list) => {
    const refused = list.find((x) => x.verdict.status === "out_of_range" || x.verdict.status === "outlier");
    if (refused) return [{ ...refused.verdict, reason: `${refused.row}: ${refused.verdict.reason}` }];
    const kept = list.find((x) => x.verdict.status === "valid") ?? list[0];
    return kept ? [kept.verdict] : [];
  });
}

/** Validates values one by one, collecting verdicts by field; returns the value to keep (null when refused). */
function checker(provider: string) {
  const byField = new Map<string, { row: string; verdict: Verdict }[]>();
  return {
    /** Ratio fields are read as ratios (the provider's unit for every one of these rows). */
    check(field: string, row: string, value: number | null): number | null {
      if (value === null) return null;
      const verdict = validate({ provider, field, value, unit: "ratio" });
      byField.set(field, [...(byField.get(field) ?? []), { row, verdict }]);
      return verdict.status === "valid" ? verdict.value : null;
    },
    verdicts: () => folded(byField),
  };
}

type Statements = { statement: StatementKind; period: StatementPeriod; rows: StatementRow[] }[];

/**
 * Statement lines under `statements.<statement>.<period>.<line>` (rules by the line's name, see
 * fields.statementLineRule); a refused value leaves its line out of that period's row.
 */
export function checkStatements(provider: string, statements: Statements): Checked<Statements> {
  const c = checker(provider);
  const value = statements.map((s) => ({
    ...s,
    rows: s.rows.map((r) => {
      const items: Record<string, number | null> = {};
      for (const [line, v] of Object.entries(r.items)) {
        const kept = c.check(`statements.${s.statement}.${s.period}.${line}`, r.periodEnd, v);
        if (kept !== null || v === null) items[line] = kept;
      }
      return { ...r, items };
    }),
  }));
  return { value, verdicts: c.verdicts() };
}

/** Earnings history: EPS actual, estimate and difference per share, the surprise in percent. */
export function checkEarnings(provider: string, rows: readonly EarningsRow[]): Checked<EarningsRow[]> {
  const c = checker(provider);
  // Newest first: a field's valid verdict is its newest quarter's (the provider sends them oldest first).
  const value = [...rows]
    .sort((a, b) => (a.quarterEnd < b.quarterEnd ? 1 : -1))
    .map((r) => ({
      ...r,
      epsActual: c.check("earnings.eps_actual", r.quarterEnd, r.epsActual),
      epsEstimate: c.check("earnings.eps_estimate", r.quarterEnd, r.epsEstimate),
      epsDifference: c.check("earnings.eps_difference", r.quarterEnd, r.epsDifference),
      surprisePercent: c.check("earnings.surprise_percent", r.quarterEnd, r.surprisePercent),
    }));
  return { value, verdicts: c.verdicts() };
}

/** Earnings trend: growth (a ratio), EPS and revenue estimates, the number of analysts. */
export function checkTrends(provider: string, rows: readonly TrendRow[]): Checked<TrendRow[]> {
  const c = checker(provider);
  const value = rows.map((r) => {
    const analysts = c.check("trend.analysts", r.period, r.analysts);
    return {
      ...r,
      growth: c.check("trend.growth", r.period, r.growth),
      epsAvg: c.check("trend.eps_avg", r.period, r.epsAvg),
      epsLow: c.check("trend.eps_low", r.period, r.epsLow),
      epsHigh: c.check("trend.eps_high", r.period, r.epsHigh),
      revenueAvg: c.check("trend.revenue_avg", r.period, r.revenueAvg),
      analysts: analysts === null ? null : Math.round(analysts),
    };
  });
  return { value, verdicts: c.verdicts() };
}

/**
 * A fund's weights as ratios (a holding's share of the fund, a sector's, an asset class's), as the
 * provider sends them; one that is only plausible percent-scaled is converted (the verdict says so).
 * A refused sector weight leaves the sector out.
 */
export function checkFund(provider: string, fund: FundDetails | null): Checked<FundDetails | null> {
  if (!fund) return { value: null, verdicts: [] };
  const c = checker(provider);
  const value: FundDetails = {
    topHoldings: fund.topHoldings.map((h) => ({
      ...h,
      weight: c.check("fund.holding_weight", h.symbol || h.name, h.weight),
    })),
    sectorWeights: fund.sectorWeights.flatMap((s) => {
      const weight = c.check("fund.sector_weight", s.sector, s.weight);
      return weight === null ? [] : [{ ...s, weight }];
    }),
    assetClasses: Object.fromEntries(
      Object.entries(fund.assetClasses).map(([name, w]) => [name, c.check("fund.asset_class", name, w)]),
    ),
  };
  return { value, verdicts: c.verdicts() };
}
