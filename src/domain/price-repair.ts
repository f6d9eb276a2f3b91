import type { Bar } from "./bars";
import type { Finding, FindingKind, UNIT_FIELDS } from "./price-sanity";

/**
 * The price sanity net's repairs: the stored bars with what the findings prove corrected, for an
 * answer that asked for it (GET /eod?repair=true). Pure; the stored bars are never changed.
 */

const round = (x: number, digits = 6) => Number(x.toPrecision(digits));

/**
 * The kinds `repairBars` corrects, each from what the finding proves, in the order they are
 * applied: a unit glitch scales one bar back by 100; a stored split not applied, or applied twice,
 * scales the bars before it by its ratio; a bar of a closed day goes; contradicting OHLC widen high
 * and low to the prices the bar holds (after the unit repair, so a close 100 times off never widens
 * them). Not repaired: a split missing with no event (a guess from the prices and volumes, however
 * strict, may be a crash), a missing or duplicated session (the true bar is unknown), a
 * non-positive price (no value to put back), weekly or monthly bars (this service builds them from
 * the daily ones) and fund distributions (a question of the dividends, not the prices).
 */
export const REPAIR_ORDER: readonly FindingKind[] = [
  "unit_100x",
  "split_unapplied",
  "split_doubled",
  "closed_day_bar",
  "ohlc_inconsistent",
];
export const REPAIRABLE: ReadonlySet<FindingKind> = new Set(REPAIR_ORDER);

export interface Repair {
  date: string;
  kind: FindingKind;
  /** What was done, in words a user reads. */
  change: string;
}

const scalePrices = (b: Bar, f: number, volume = 1): Bar => ({
  ...b,
  open: round(b.open * f, 10),
  high: round(b.high * f, 10),
  low: round(b.low * f, 10),
  close: round(b.close * f, 10),
  adjClose: round(b.adjClose * f, 10),
  volume: Math.round(b.volume * volume),
});

/**
 * The bars with every repairable finding applied (REPAIRABLE), and each change named. `findings`
 * may reach past the bars (a split found after the window scales the bars before it).
 */
export function repairBars(bars: readonly Bar[], findings: readonly Finding[]): { bars: Bar[]; repaired: Repair[] } {
  let out = [...bars];
  const repaired: Repair[] = [];
  const first = bars[0]?.date ?? "";
  const last = bars.at(-1)?.date ?? "";
  const ordered = REPAIR_ORDER.flatMap((kind) => findings.filter((f) => f.kind === kind));
  for (const f of ordered) {
    if (f.kind === "split_unapplied" || f.kind === "split_doubled") {
      const ratio = Number(f.evidence.ratio);
      if (!(ratio > 0) || f.date <= first) continue;
      // Unapplied: the bars before were not divided by the ratio; doubled: they were divided once too often.
      const factor = f.kind === "split_unapplied" ? 1 / ratio : ratio;
      const n = out.filter((b) => b.date < f.date).length;
      out = out.map((b) => (b.date < f.date ? scalePrices(b, factor, 1 / factor) : b));
      if (n)
        repaired.push({
          date: f.date,
          kind: f.kind,
          change: `${n} session(s) before ${f.date}: prices ${f.kind === "split_unapplied" ? "divided" : "multiplied"} by ${ratio >= 1 ? ratio : `1/${round(1 / ratio)}`}, volumes the other way`,
        });
      continue;
    }
    if (f.date < first || f.date > last) continue;
    const i = out.findIndex((b) => b.date === f.date);
    const bar = out[i];
    if (!bar) continue;
    if (f.kind === "closed_day_bar") {
      out.splice(i, 1);
      repaired.push({ date: f.date, kind: f.kind, change: `bar removed (${String(f.evidence.closed)})` });
    } else if (f.kind === "unit_100x") {
      const factor = Number(f.evidence.factor);
      const fields = String(f.evidence.fields).split(",") as (typeof UNIT_FIELDS)[number][];
      const fixed = { ...bar };
      for (const field of fields) fixed[field] = round(bar[field] / factor, 10);
      out[i] = fixed;
      repaired.push({
        date: f.date,
        kind: f.kind,
        change: `${fields.join(", ")} ${factor > 1 ? "divided" : "multiplied"} by 100`,
      });
    } else if (f.kind === "ohlc_inconsistent") {
      const high = Math.max(bar.open, bar.high, bar.low, bar.close);
      const low = Math.min(bar.open, bar.high, bar.low, bar.close);
      out[i] = { ...bar, high, low };
      repaired.push({
        date: f.date,
        kind: f.kind,
        change: `high ${bar.high} → ${high}, low ${bar.low} → ${low}`,
      });
    }
  }
  return { bars: out, repaired };
}
