import { type Bar, periodKey, resample } from "./bars";
import type { Finding } from "./price-sanity";

/**
 * The price sanity net's findings that the stored daily bars alone cannot give: the provider's
 * weekly and monthly bars (asked by the canary) and a fund's capital gains (sent with the chart's
 * events). Pure.
 */

const round = (x: number, digits = 6) => Number(x.toPrecision(digits));

/** How far a provider's weekly or monthly close may stand from the daily close it should repeat (relative): float32 and the price hint's rounding, far inside a quarter's dividend. */
const PERIOD_CLOSE_TOLERANCE = 5e-4;

/**
 * (i) The provider's weekly or monthly bars against the stored daily ones: each period's close
 * should repeat the close of its last session (split-adjusted only); one that departs from it and
 * repeats the dividend-adjusted close instead is `period_adjusted` (users of the provider report
 * its longer bars adjusted for dividends), dated by the period's first session. Periods the daily
 * bars do not hold whole (the first, the one under way) are left out.
 */
export function periodAdjustments(
  daily: readonly Bar[],
  provided: readonly Bar[],
  resolution: "weekly" | "monthly",
): Finding[] {
  const ours = resample(daily, resolution);
  // Matched by the period, not the date: the provider may date a week by its Monday and a month by
  // its 1st, where the service dates them by their first session.
  const byPeriod = new Map(ours.slice(1, -1).map((b) => [periodKey(b.date, resolution), b]));
  const out: Finding[] = [];
  for (const p of provided) {
    const o = byPeriod.get(periodKey(p.date, resolution));
    if (!o || o.close <= 0 || o.adjClose <= 0) continue;
    const off = (x: number, y: number) => Math.abs(x / y - 1) > PERIOD_CLOSE_TOLERANCE;
    if (!off(p.close, o.close)) continue;
    out.push({
      date: o.date,
      kind: "period_adjusted",
      evidence: {
        interval: resolution,
        provider_close: p.close,
        daily_close: o.close,
        daily_adj_close: o.adjClose,
        matches_adjusted: !off(p.close, o.adjClose),
      },
    });
  }
  return out;
}

/**
 * (j) A fund's dividends that include a capital gains distribution the provider also sends apart
 * (same ex-date, the dividend at least the gain): counted twice by anyone who adds them, and the
 * dividend overstates the fund's income.
 */
export function capitalGainsInDividends(
  dividends: readonly { date: string; amount: number }[],
  capitalGains: readonly { date: string; amount: number }[],
): Finding[] {
  const gains = new Map(capitalGains.map((g) => [g.date, g.amount]));
  return dividends.flatMap((d) => {
    const gain = gains.get(d.date);
    if (gain === undefined || d.amount < gain * (1 - 1e-6)) return [];
    return [
      {
        date: d.date,
        kind: "capital_gains_in_dividend" as const,
        evidence: { dividend: d.amount, capital_gain: gain, income: round(d.amount - gain, 8) },
      },
    ];
  });
}
