import { isoWithOffset } from "../../clock";
import type { ListingRow } from "../../db/repositories/catalogue";
import type { ListingPrices } from "../../db/repositories/prices";
import { type Bar, periodKey, type Resolution, resample } from "../../domain/bars";
import { barsToCsv, convertedBarsToCsv } from "../../domain/csv";
import type { PairRate } from "../../domain/fx/rates";
import type { Period, PeriodWindow } from "../../domain/periods";
import { REPAIRABLE, type Repair, repairBars } from "../../domain/price-repair";
import type { Finding } from "../../domain/price-sanity";
import type { StoredPrecision } from "../../domain/provider-precision";
import type { Context } from "../../platform/context";
import { type ConversionNote, convertDailyBars } from "../fx/convert";
import { FX_PROVISIONAL_HEADER } from "../fx/converted-answers";

/**
 * GET /eod/{ticker}'s answer made from the window's stored bars: repaired, converted and resampled
 * as asked (shape), then rendered as JSON or CSV with the headers that say what CSV has no room for.
 */

export interface EodQuery {
  ticker: string;
  period?: Period;
  from?: string;
  to?: string;
  fmt: "json" | "csv";
  order: "a" | "d";
  currency?: string;
  exchange?: string;
  isin?: string;
  /** Serve the series with the repairable findings applied (price-sanity REPAIRABLE). */
  repair?: boolean;
  /** Answer in this currency: each daily bar at its day's rate (services/fx/convert). */
  convert?: string;
}

/** A rendered answer, cached as it is sent: its body and the headers that carry what the CSV form has no room for. */
export interface EodAnswer {
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

/** Bars of the window, whether any came from the stream provider (the answer is then provisional), findings and precision. */
export type WindowBars = Pick<ListingPrices, "bars" | "windowHasSource" | "findings" | "precision">;

/** The bars of the answer, the findings that concern them, what a repair changed, and a conversion. */
export interface Shaped {
  bars: Bar[];
  warnings: Finding[];
  repaired: Repair[] | null;
  precision: StoredPrecision | "unchecked";
  fx: ShapedConversion | null;
}

/** A converted answer's rate of each bar (a weekly or monthly bar's is its close's day's) and what it says. */
interface ShapedConversion {
  rates: PairRate[];
  note: ConversionNote;
  provisional: boolean;
}

/**
 * The window's bars as answered: repaired when asked (the stored bars stay as they are), converted
 * when asked (each daily bar at its day's rate), resampled from those daily bars, in the order
 * asked; the net's findings among the window's daily bars (dates from the first to the last, or
 * the window's own ends) as warnings.
 */
export async function shape(
  ctx: Context,
  q: EodQuery,
  window: PeriodWindow,
  read: WindowBars,
  listing: ListingRow,
): Promise<Shaped> {
  const { bars: fixed, repaired } = q.repair
    ? repairBars(read.bars, read.findings)
    : { bars: read.bars, repaired: null };
  const from = window.from ?? read.bars[0]?.date ?? "";
  const to = window.to ?? read.bars.at(-1)?.date ?? "";
  const warnings = read.findings.filter((f) => f.date >= from && f.date <= to);
  const converted = q.convert ? await convertDailyBars(ctx, listing, fixed, q.convert) : null;
  const bars = resample(converted?.bars ?? fixed, window.resolution);
  const fx = converted
    ? {
        rates: closingRates(converted.bars, bars, converted.rates, window.resolution),
        note: converted.conversion,
        provisional: converted.provisional,
      }
    : null;
  if (q.order === "d") {
    bars.reverse();
    fx?.rates.reverse();
  }
  return { bars, warnings, repaired, precision: read.precision, fx };
}

/** The rate of each answered bar: its own day's, or for a weekly or monthly bar its last day's (its close's). */
function closingRates(
  daily: readonly Bar[],
  answered: readonly Bar[],
  rates: ReadonlyMap<string, PairRate>,
  resolution: Resolution,
): PairRate[] {
  if (resolution === "daily") return answered.map((b) => rates.get(b.date) as PairRate);
  const lastOf = new Map<string, string>();
  for (const b of daily) lastOf.set(periodKey(b.date, resolution), b.date);
  return answered.map((b) => rates.get(lastOf.get(periodKey(b.date, resolution)) ?? "") as PairRate);
}

const PRECISION_NOTE: Record<Shaped["precision"], string> = {
  full: "every decimal the provider gave (its float32 prices, up to 9 significant digits)",
  price_hint: "rounded to the provider's price hint when stored; the next ingestion stores them again in full",
  unchecked: "not yet checked (stored before the checks ran); the next ingestion checks them",
};

/** A bar's rate as the JSON answer carries it. */
const barRate = (r: PairRate | undefined) =>
  r ? { rate: r.rate, published: r.published, source: r.source, carried_forward: r.carried_forward } : null;

/** What the CSV form has no room for, in headers (the JSON form carries the same in its body). */
function headersOf(s: Shaped): Record<string, string> {
  const kinds = new Map<string, number>();
  for (const w of s.warnings) kinds.set(w.kind, (kinds.get(w.kind) ?? 0) + 1);
  return {
    "x-price-precision": s.precision,
    "x-price-warnings": String(s.warnings.length),
    ...(kinds.size ? { "x-price-warning-kinds": [...kinds].map(([k, n]) => `${k}=${n}`).join(", ") } : {}),
    ...(s.repaired ? { "x-price-repaired": String(s.repaired.length) } : {}),
    ...(s.fx
      ? {
          "x-fx-conversion": `${s.fx.note.from}->${s.fx.note.to}`,
          "x-fx-source": s.fx.note.source,
          ...(s.fx.provisional ? { [FX_PROVISIONAL_HEADER]: "true" } : {}),
        }
      : {}),
  };
}

export function render(
  q: EodQuery,
  label: string,
  listing: ListingRow,
  s: Shaped,
  dataSource: string,
  now: Date,
): EodAnswer {
  const headers = headersOf(s);
  if (q.fmt === "csv")
    return {
      contentType: "text/csv; charset=utf-8",
      body: s.fx ? convertedBarsToCsv(s.bars, s.fx.rates) : barsToCsv(s.bars),
      headers,
    };
  const answer = {
    ticker: q.ticker,
    listing: { ticker: listing.ticker, isin: listing.isin, currency: listing.currency, exchange: listing.exchange },
    period: label,
    format: "json",
    count: s.bars.length,
    retrieved_at: isoWithOffset(now),
    data_source: dataSource,
    precision: { stored: s.precision, note: PRECISION_NOTE[s.precision] },
    warnings: s.warnings.map((w) => ({
      date: w.date,
      kind: w.kind,
      repairable: REPAIRABLE.has(w.kind),
      evidence: w.evidence,
    })),
    ...(s.repaired ? { repaired: s.repaired } : {}),
    ...(s.fx ? { conversion: s.fx.note } : {}),
    data: s.bars.map((b, i) => ({
      Date: b.date,
      Open: b.open,
      High: b.high,
      Low: b.low,
      Close: b.close,
      "Adj Close": b.adjClose,
      Volume: b.volume,
      ...(s.fx ? { fx: barRate(s.fx.rates[i]) } : {}),
    })),
  };
  return { contentType: "application/json; charset=utf-8", body: JSON.stringify(answer), headers };
}
