import { FINDING_KINDS, type FindingKind } from "../../src/domain/price-sanity";
import type { SimBar, SimHistory } from "./market-data";

/**
 * The delayed provider's known price glitches, on demand (POST /__sandbox/faults with a mode named
 * as the kind of finding it makes, and the session `date` it strikes): what users of the real
 * provider report, so the service's price sanity net can be seen to find each with its date and
 * kind. Each works on a copy of the symbol's deterministic history (see `glitched`); the answer is
 * otherwise the chart's own.
 */
export const PRICE_GLITCHES = FINDING_KINDS;
export type PriceGlitch = FindingKind;

export const isPriceGlitch = (mode: string): mode is PriceGlitch =>
  (PRICE_GLITCHES as readonly string[]).includes(mode);

export interface GlitchedHistory extends SimHistory {
  capitalGains: { date: string; time: number; amount: number }[];
  /** Weekly and monthly closes are the adjusted ones. */
  periodsAdjusted: boolean;
}

const scaled = (b: SimBar, f: number, volume = 1): SimBar => ({
  ...b,
  open: b.open * f,
  high: b.high * f,
  low: b.low * f,
  close: b.close * f,
  adjclose: b.adjclose * f,
  volume: Math.round(b.volume * volume),
});

/** Adjusted closes again from the dividends, as market-data computes them: each close before an ex-date scaled by (1 - D / the close before). */
function readjust(bars: SimBar[], dividends: readonly { date: string; amount: number }[]): void {
  const byDate = new Map(dividends.map((d) => [d.date, d.amount]));
  let factor = 1;
  for (let i = bars.length - 1; i >= 0; i--) {
    const b = bars[i] as SimBar;
    b.adjclose = Math.round(b.close * factor * 1e6) / 1e6;
    const div = byDate.get(b.date);
    const prev = bars[i - 1];
    if (div !== undefined && prev) factor *= 1 - div / prev.close;
  }
}

/** `history` with `glitch` applied at its `date` (none: the history as it is; a session the history lacks: nothing changes). */
export function glitched(
  history: SimHistory,
  glitch: { mode: PriceGlitch; date?: string } | undefined,
  currency: string,
): GlitchedHistory {
  // Without a glitch the cached history serves as it is (the chart never changes it).
  if (!glitch) return { ...history, capitalGains: [], periodsAdjusted: false };
  const out: GlitchedHistory = {
    bars: history.bars.map((b) => ({ ...b })),
    splits: [...history.splits],
    dividends: history.dividends.map((d) => ({ ...d })),
    capitalGains: [],
    periodsAdjusted: glitch.mode === "period_adjusted",
  };
  const date = glitch.date ?? "";
  const at = out.bars.findIndex((b) => b.date === date);
  const bar = out.bars[at];
  const prev = out.bars[at - 1];
  switch (glitch.mode) {
    // The bars before `date` at four times the price and a quarter of the volume: a 4:1 split history never got.
    case "split_missing":
      if (at > 0) out.bars = out.bars.map((b, i) => (i < at ? scaled(b, 4, 1 / 4) : b));
      break;
    // A 2:1 split on `date` that the bars before it were never divided by.
    case "split_unapplied":
      if (at > 0 && bar) {
        out.bars = out.bars.map((b, i) => (i < at ? scaled(b, 2, 1 / 2) : b));
        out.splits.push({ date, time: bar.time, numerator: 2, denominator: 1 });
      }
      break;
    // A 2:1 split on `date` whose bars before it were divided by 2 once more.
    case "split_doubled":
      if (at > 0 && bar) {
        out.bars = out.bars.map((b, i) => (i < at ? scaled(b, 1 / 2, 2) : b));
        out.splits.push({ date, time: bar.time, numerator: 2, denominator: 1 });
      }
      break;
    // The bar of `date` in pounds on a pence line, else a hundred times up.
    case "unit_100x":
      if (bar) out.bars[at] = scaled(bar, currency === "GBp" ? 1 / 100 : 100);
      break;
    // A bar on `date`, a day the venue is closed: the session before it, repeated.
    case "closed_day_bar": {
      const before = [...out.bars].reverse().find((b) => b.date < date);
      if (before && at < 0) {
        const time =
          before.time + Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${before.date}T00:00:00Z`)) / 1000);
        out.bars.push({ ...before, date, time });
        out.bars.sort((a, b) => a.time - b.time);
      }
      break;
    }
    // The bar of `date` repeats the session before it, with no volume.
    case "duplicate_session":
      if (bar && prev) out.bars[at] = { ...prev, date: bar.date, time: bar.time, volume: 0, missing: false };
      break;
    // No bar for `date` (its slot sent as nulls).
    case "missing_session":
      if (bar) out.bars[at] = { ...bar, missing: true };
      break;
    // The high and the low of `date` swapped.
    case "ohlc_inconsistent":
      if (bar) out.bars[at] = { ...bar, high: bar.low, low: bar.high };
      break;
    // A low of 0 and a volume of -100 on `date`.
    case "non_positive":
      if (bar) out.bars[at] = { ...bar, low: 0, volume: -100 };
      break;
    // A capital gains distribution of 0.5 on `date`, sent apart and also added to that day's dividend.
    case "capital_gains_in_dividend":
      if (bar) {
        const gain = 0.5;
        const div = out.dividends.find((d) => d.date === date);
        if (div) div.amount += gain;
        else out.dividends.push({ date, time: bar.time, amount: gain });
        out.capitalGains.push({ date, time: bar.time, amount: gain });
        // The provider's adjusted closes take in the whole distribution, as its dividend does.
        readjust(out.bars, out.dividends);
      }
      break;
    // Weekly and monthly bars whose close is the dividend-adjusted close (periodsAdjusted, above).
    case "period_adjusted":
      break;
  }
  return out;
}
