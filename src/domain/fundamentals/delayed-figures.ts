import { HIGHLIGHT_SOURCES, HIGHLIGHT_TEXT } from "../../data/delayed-highlights";
import { unboxNumber } from "../numbers";
import { dayOf } from "../wire-schema";
import type { Unit } from "./validation";

/**
 * The delayed provider's quoteSummary answer as the service's figures: pure mapping from the
 * provider's module fields to snake_case names (the deep document's and the database's), each
 * numeric figure with the unit the provider sends it in, so the validation layer can read it.
 */

/** A quoteSummary result as the service read it (numbers, strings, nested modules). */
export type Summary = Record<string, unknown>;

export interface RawFigure {
  field: string;
  value: number | null;
  unit: Unit;
}

type Module = Record<string, unknown> | undefined;

export const mod = (s: Summary, name: string): Module => s[name] as Module;

/** A date (YYYY-MM-DD) from a Date, epoch seconds or an ISO string; null otherwise. */
export function day(v: unknown): string | null {
  return v && typeof v === "object" && "raw" in v ? day((v as { raw: unknown }).raw) : dayOf(v);
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** Figures of a fund only; SHARED_FIELDS apply to both kinds of instrument. */
const FUND_FIELDS = new Set(["fund_yield", "total_assets"]);
const SHARED_FIELDS = new Set([
  "price",
  "beta",
  "fifty_two_week_high",
  "fifty_two_week_low",
  "fifty_day_average",
  "two_hundred_day_average",
]);

/** The numeric highlights the provider sent (absent ones as null: the validation layer counts them). */
export function highlightFigures(s: Summary): RawFigure[] {
  const out: RawFigure[] = [];
  const fund = mod(s, "fundProfile") !== undefined || mod(s, "topHoldings") !== undefined;
  for (const [field, sources, unit] of HIGHLIGHT_SOURCES) {
    let value: number | null = null;
    let seen = false;
    for (const [m, key] of sources) {
      const module = mod(s, m);
      if (!module) continue;
      seen = true;
      value = unboxNumber(module[key]);
      if (value !== null) break;
    }
    // A figure of a module the answer does not carry, or one that does not apply to the kind of
    // instrument (a fund has no earnings, a company no fund yield), is not "missing".
    if (!seen || FUND_FIELDS.has(field) !== fund) {
      if (!(seen && SHARED_FIELDS.has(field))) continue;
    }
    out.push({ field, value, unit: unit ?? "ratio" });
  }
  const expense = unboxNumber((mod(s, "fundProfile")?.feesExpensesInvestment as Module)?.annualReportExpenseRatio);
  if (fund) out.push({ field: "expense_ratio", value: expense, unit: "ratio" });
  return out;
}

export function highlightTexts(s: Summary): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, m, key, kind] of HIGHLIGHT_TEXT) {
    const v = mod(s, m)?.[key];
    const text = kind === "date" ? day(v) : str(v);
    if (text) out[field] = text;
  }
  return out;
}

/**
 * Analyst ratings: the provider's recommendation mean runs from 1 (strong buy) to 5 (sell); the
 * service's `rating`, like EODHD's, from 1 (strong sell) to 5 (strong buy), hence 6 - mean.
 */
export function analystFigures(s: Summary): { figures: RawFigure[]; texts: Record<string, string> } {
  const fd = mod(s, "financialData");
  const trend = (mod(s, "recommendationTrend")?.trend as Record<string, unknown>[] | undefined) ?? [];
  const now = trend.find((t) => t.period === "0m") ?? trend[0];
  const mean = unboxNumber(fd?.recommendationMean);
  const figures: RawFigure[] = [
    { field: "rating", value: mean === null ? null : Math.round((6 - mean) * 100) / 100, unit: "ratio" },
    { field: "target_price", value: unboxNumber(fd?.targetMeanPrice), unit: "ratio" },
    { field: "analysts", value: unboxNumber(fd?.numberOfAnalystOpinions), unit: "ratio" },
  ];
  for (const k of ["strongBuy", "buy", "hold", "sell", "strongSell"]) {
    figures.push({
      field: k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value: unboxNumber(now?.[k]),
      unit: "ratio",
    });
  }
  const key = str(fd?.recommendationKey);
  return { figures: fd || now ? figures : [], texts: key ? { recommendation: key } : {} };
}

/** The profile (General section): strings and counts as the provider gives them. */
export function profileOf(s: Summary): Record<string, string | number | null> {
  const p = mod(s, "assetProfile") ?? mod(s, "summaryProfile");
  const price = mod(s, "price");
  const fp = mod(s, "fundProfile");
  const out: Record<string, string | number | null> = {
    name: str(price?.longName) ?? str(price?.shortName),
    description: str(p?.longBusinessSummary),
    address: str(p?.address1),
    city: str(p?.city),
    zip: str(p?.zip),
    country: str(p?.country),
    phone: str(p?.phone),
    website: str(p?.website),
    sector: str(p?.sector),
    industry: str(p?.industry),
    employees: unboxNumber(p?.fullTimeEmployees),
    exchange: str(price?.exchangeName) ?? str(price?.exchange),
    quote_type: str(price?.quoteType),
    fund_family: str(fp?.family),
    fund_category: str(fp?.categoryName),
    legal_type: str(fp?.legalType),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== null));
}

export interface EarningsRow {
  quarterEnd: string;
  period: string | null;
  epsActual: number | null;
  epsEstimate: number | null;
  epsDifference: number | null;
  /** Percent (EODHD's `surprisePercent`): the provider's fraction times 100. */
  surprisePercent: number | null;
}

export function earningsRows(s: Summary): EarningsRow[] {
  const history = (mod(s, "earningsHistory")?.history as Record<string, unknown>[] | undefined) ?? [];
  return history.flatMap((h) => {
    const quarterEnd = day(h.quarter);
    if (!quarterEnd) return [];
    const surprise = unboxNumber(h.surprisePercent);
    return [
      {
        quarterEnd,
        period: str(h.period),
        epsActual: unboxNumber(h.epsActual),
        epsEstimate: unboxNumber(h.epsEstimate),
        epsDifference: unboxNumber(h.epsDifference),
        surprisePercent: surprise === null ? null : Math.round(surprise * 100 * 10_000) / 10_000,
      },
    ];
  });
}

/** Analysts' EPS estimates by horizon, the Highlights' EPSEstimate* figures. */
const ESTIMATE_FIELDS: Record<string, string> = {
  "0q": "eps_estimate_current_quarter",
  "+1q": "eps_estimate_next_quarter",
  "0y": "eps_estimate_current_year",
  "+1y": "eps_estimate_next_year",
};

/**
 * The analysts' average EPS estimate of each horizon as a figure of its own (an estimate is another
 * quantity than the trailing EPS, spec /fundamental rule 2): validated and stored like the others.
 */
export function estimateFigures(s: Summary): RawFigure[] {
  return trendRows(s).flatMap((t) => {
    const field = ESTIMATE_FIELDS[t.period];
    return field ? [{ field, value: t.epsAvg, unit: "ratio" as const }] : [];
  });
}

/** Analysts' horizons in time order: this quarter, next quarter, this year, next year (others last). */
const HORIZONS = ["0q", "+1q", "0y", "+1y"];
export function horizonRank(period: string): number {
  const i = HORIZONS.indexOf(period);
  return i === -1 ? HORIZONS.length : i;
}

export interface TrendRow {
  period: string;
  endDate: string | null;
  /** Ratio. */
  growth: number | null;
  epsAvg: number | null;
  epsLow: number | null;
  epsHigh: number | null;
  revenueAvg: number | null;
  analysts: number | null;
}

export function trendRows(s: Summary): TrendRow[] {
  const trend = (mod(s, "earningsTrend")?.trend as Record<string, unknown>[] | undefined) ?? [];
  return trend.flatMap((t) => {
    const period = str(t.period);
    if (!period) return [];
    const e = t.earningsEstimate as Module;
    const r = t.revenueEstimate as Module;
    const analysts = unboxNumber(e?.numberOfAnalysts);
    return [
      {
        period,
        endDate: day(t.endDate),
        growth: unboxNumber(t.growth),
        epsAvg: unboxNumber(e?.avg),
        epsLow: unboxNumber(e?.low),
        epsHigh: unboxNumber(e?.high),
        revenueAvg: unboxNumber(r?.avg),
        analysts: analysts === null ? null : Math.round(analysts),
      },
    ];
  });
}

/** Reporting currency (financialData) and quote currency (price). */
export function currenciesOf(s: Summary): { quote: string | null; financial: string | null } {
  return { quote: str(mod(s, "price")?.currency), financial: str(mod(s, "financialData")?.financialCurrency) };
}

/** A fund's holdings, sector weights and asset classes (weights as ratios). */
export interface FundDetails {
  topHoldings: { symbol: string; name: string; weight: number | null }[];
  sectorWeights: { sector: string; weight: number }[];
  /** stock, bond, cash, preferred, convertible, other: shares of the fund's assets. */
  assetClasses: Record<string, number | null>;
}

export const ASSET_CLASSES: [string, string][] = [
  ["stock", "stockPosition"],
  ["bond", "bondPosition"],
  ["cash", "cashPosition"],
  ["preferred", "preferredPosition"],
  ["convertible", "convertiblePosition"],
  ["other", "otherPosition"],
];

/** The fund modules' holdings and weights; null for an answer without topHoldings (not a fund). */
export function fundDetailsOf(s: Summary): FundDetails | null {
  const top = mod(s, "topHoldings");
  if (!top) return null;
  const holdings = (top.holdings as Record<string, unknown>[] | undefined) ?? [];
  const sectors = (top.sectorWeightings as Record<string, unknown>[] | undefined) ?? [];
  return {
    topHoldings: holdings.map((h) => ({
      symbol: str(h.symbol) ?? "",
      name: str(h.holdingName) ?? "",
      weight: unboxNumber(h.holdingPercent),
    })),
    sectorWeights: sectors.flatMap((o) =>
      Object.entries(o).flatMap(([sector, w]) => {
        const weight = unboxNumber(w);
        return weight === null ? [] : [{ sector, weight }];
      }),
    ),
    assetClasses: Object.fromEntries(ASSET_CLASSES.map(([name, key]) => [name, unboxNumber(top[key])])),
  };
}
