import { easterSunday } from "../../src/domain/fx/publication";
import { addDays } from "../../src/domain/instants";
import { streamSymbolOf } from "../../src/domain/provider-symbols";
import { venueOf } from "../../src/domain/venues";
import { FULL_CATALOGUE } from "../db/seed-indices";
import { WORLD } from "./world";

/**
 * Deterministic market data for the provider simulators: every bar of a symbol depends only on the
 * symbol and its date (the path starts on a fixed day), so reruns and restarts serve the same history.
 */

export interface SimSymbol {
  symbol: string; // delayed-provider symbol (AAPL, MC.PA, RACE.MI)
  /** Stream-provider symbol (NASDAQ:AAPL, EURONEXT:MC, MIL:RACE). */
  streamSymbol: string;
  isin: string;
  name: string;
  /** Currency the providers quote in: London's sterling lines in pence (GBp), as the real ones do. */
  currency: string;
  yahooExchange: string; // NMS, NYQ, PCX, PAR, AMS, GER, MIL, LSE
  fullExchangeName: string;
  quoteType: "EQUITY" | "ETF";
  /** The catalogue's exchange code (NASDAQ, XETRA): its venue's session hours time the intraday bars. */
  exchange: string;
  /** Session open in hours from the session day's midnight UTC, the time of a daily bar (negative: the evening before, east of UTC). */
  openUtcHour: number;
  gmtoffset: number;
  timezone: string;
}

export interface SimBar {
  date: string;
  time: number; // epoch seconds of the session open
  open: number;
  high: number;
  low: number;
  close: number;
  adjclose: number;
  volume: number;
  /** A slot the provider serves as nulls (halt, missing data). */
  missing: boolean;
}

export interface SimHistory {
  bars: SimBar[];
  splits: { date: string; time: number; numerator: number; denominator: number }[];
  dividends: { date: string; time: number; amount: number }[];
}

const START = "2014-01-02";

/** Real splits of catalogue shares (split-adjusted history before them). */
const SPLITS: Record<string, { date: string; numerator: number; denominator: number }> = {
  AAPL: { date: "2020-08-31", numerator: 4, denominator: 1 },
  NVDA: { date: "2024-06-10", numerator: 10, denominator: 1 },
  TSLA: { date: "2022-08-25", numerator: 3, denominator: 1 },
  AMZN: { date: "2022-06-06", numerator: 20, denominator: 1 },
  GOOGL: { date: "2022-07-18", numerator: 20, denominator: 1 },
  GOOG: { date: "2022-07-18", numerator: 20, denominator: 1 },
};

/** Catalogue lines that really pay no dividend (growth shares, accumulating funds). */
const NO_DIVIDEND = new Set([
  "TSLA",
  "AMZN",
  "NFLX",
  "ADBE",
  "BRK-B",
  "ADYEN.AS",
  "RKLB",
  "CRWV",
  "CSPX.L",
  "SXR8.DE",
  "SWDA.L",
  "IWDA.AS",
  "EUNL.DE",
  "CW8.PA",
]);

const VENUES: Record<
  string,
  Omit<SimSymbol, "symbol" | "streamSymbol" | "isin" | "name" | "currency" | "quoteType" | "exchange">
> = {
  NASDAQ: { yahooExchange: "NMS", fullExchangeName: "NasdaqGS", openUtcHour: 14.5, gmtoffset: -18000, timezone: "EST" },
  NYSE: { yahooExchange: "NYQ", fullExchangeName: "NYSE", openUtcHour: 14.5, gmtoffset: -18000, timezone: "EST" },
  NYSEARCA: {
    yahooExchange: "PCX",
    fullExchangeName: "NYSEArca",
    openUtcHour: 14.5,
    gmtoffset: -18000,
    timezone: "EST",
  },
  PAR: { yahooExchange: "PAR", fullExchangeName: "Paris", openUtcHour: 8, gmtoffset: 3600, timezone: "CET" },
  AMS: { yahooExchange: "AMS", fullExchangeName: "Amsterdam", openUtcHour: 8, gmtoffset: 3600, timezone: "CET" },
  XETRA: { yahooExchange: "GER", fullExchangeName: "XETRA", openUtcHour: 8, gmtoffset: 3600, timezone: "CET" },
  MIL: { yahooExchange: "MIL", fullExchangeName: "Milan", openUtcHour: 8, gmtoffset: 3600, timezone: "CET" },
  LSE: { yahooExchange: "LSE", fullExchangeName: "LSE", openUtcHour: 8, gmtoffset: 0, timezone: "GMT" },
  MCE: { yahooExchange: "MCE", fullExchangeName: "Madrid", openUtcHour: 8, gmtoffset: 3600, timezone: "CET" },
  BRU: { yahooExchange: "BRU", fullExchangeName: "Brussels", openUtcHour: 8, gmtoffset: 3600, timezone: "CET" },
  HEL: { yahooExchange: "HEL", fullExchangeName: "Helsinki", openUtcHour: 7, gmtoffset: 7200, timezone: "EET" },
};

/** The delayed provider's symbol of a catalogue listing (its ticker; Milan's RACE is RACE.MI there). */
function providerSymbol(ticker: string, exchange: string | null): string {
  return exchange === "MIL" && !ticker.endsWith(".MI") ? `${ticker}.MI` : ticker;
}

/** Every symbol the simulators know, from the seed catalogue. */
export const SIM_SYMBOLS: ReadonlyMap<string, SimSymbol> = (() => {
  const out = new Map<string, SimSymbol>();
  for (const inst of FULL_CATALOGUE) {
    for (const l of inst.listings) {
      const symbol = providerSymbol(l.ticker, l.exchange);
      const venue = VENUES[l.exchange ?? "NYSE"] ?? VENUES.NYSE;
      if (!venue || out.has(symbol)) continue;
      const currency = l.exchange === "LSE" && l.currency === "GBP" ? "GBp" : l.currency;
      out.set(symbol, {
        symbol,
        streamSymbol: streamSymbolOf(l.ticker, l.exchange),
        isin: inst.isin,
        name: inst.name,
        currency,
        quoteType: inst.quoteType,
        exchange: l.exchange ?? "NYSE",
        ...venue,
      });
    }
  }
  // The world the catalogue does not hold yet (tools/sandbox/world.ts); a seed line keeps its symbol.
  for (const inst of WORLD) for (const l of inst.lines) if (!out.has(l.symbol)) out.set(l.symbol, l);
  return out;
})();

/** Each ISIN's lines, as the providers' identifier searches find them (none for an ISIN they miss). */
export const SIM_LINES_OF_ISIN: ReadonlyMap<string, readonly SimSymbol[]> = (() => {
  const out = new Map<string, SimSymbol[]>();
  for (const s of SIM_SYMBOLS.values()) out.set(s.isin, [...(out.get(s.isin) ?? []), s]);
  return out;
})();

/** ISINs the delayed provider's identifier search does not find though it quotes their lines. */
export const ISIN_SEARCH_MISSES: ReadonlySet<string> = new Set(
  WORLD.filter((w) => !w.isinSearchable).map((w) => w.isin),
);

/** FNV-1a: a symbol's (or a day's) fixed seed. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for simulated prices. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

const round = (x: number, dp: number) => Math.round(x * 10 ** dp) / 10 ** dp;

const sessionsCache = new Map<string, string[]>();

/** Business days from START through `until` (inclusive), less New Year's Day and Christmas (computed once per `until`). */
function sessions(until: string): string[] {
  const hit = sessionsCache.get(until);
  if (hit) return hit;
  const out: string[] = [];
  const d = new Date(`${START}T00:00:00Z`);
  const end = new Date(`${until}T00:00:00Z`).getTime();
  while (d.getTime() <= end) {
    const day = d.getUTCDay();
    const md = d.toISOString().slice(5, 10);
    if (day !== 0 && day !== 6 && md !== "01-01" && md !== "12-25") out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  sessionsCache.set(until, out);
  return out;
}

/**
 * Good Friday of a year (Easter by the anonymous Gregorian computus, less two days): every venue the
 * seed catalogue lists on closes that day (Tokyo does not), a holiday of years the service's own
 * calendars do not hold.
 */
export function goodFriday(year: number): string {
  let hit = goodFridays.get(year);
  if (hit === undefined) {
    hit = computus(year);
    goodFridays.set(year, hit);
  }
  return hit;
}

const goodFridays = new Map<number, string>();

/** Good Friday: two days before Easter Sunday (the domain's computus, the one the ECB's calendar uses). */
const computus = (year: number): string => addDays(easterSunday(year), -2);

const cache = new Map<string, SimHistory>();

/**
 * Daily history of a symbol through `until`: GARCH-like volatility clusters, overnight gaps,
 * quarterly dividends (adjclose < close before them), a split where the share really split,
 * and a few slots served as nulls.
 */
export function dailyHistory(symbol: string, until: string): SimHistory {
  const key = `${symbol}|${until}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const info = SIM_SYMBOLS.get(symbol);
  const venue = info ? venueOf(info.exchange) : null;
  const r = rng(hash(symbol));
  const days = sessions(until);
  const openHour = info?.openUtcHour ?? 14.5;
  // Pence lines trade at a hundred times the price of the same value in pounds.
  let price = (20 + (hash(`${symbol}:p`) % 400)) * (info?.currency === "GBp" ? 100 : 1);
  let variance = 0.00025;
  const drift = 0.0003;
  const paysDividend = !NO_DIVIDEND.has(symbol);
  const yieldQ = paysDividend ? 0.004 + (hash(`${symbol}:y`) % 60) / 10000 : 0;
  const baseVolume = 200_000 + (hash(`${symbol}:v`) % 30_000_000);
  const bars: SimBar[] = [];
  const dividends: SimHistory["dividends"] = [];
  let prevClose = price;
  for (const date of days) {
    const shock = normal(r);
    const ret = drift + Math.sqrt(variance) * shock;
    variance = 0.000004 + 0.08 * ret * ret + 0.9 * variance;
    const gap = r() < 0.03 ? normal(r) * 0.03 : normal(r) * 0.003;
    const open = prevClose * Math.exp(gap);
    const close = Math.max(0.5, prevClose * Math.exp(ret));
    const spread = Math.sqrt(variance) * (0.5 + r());
    const high = Math.max(open, close) * (1 + spread * 0.6);
    const low = Math.min(open, close) * (1 - spread * 0.6);
    const volume = Math.round(baseVolume * Math.exp(normal(r) * 0.35) * (1 + 8 * Math.abs(ret)));
    const time = Math.round(Date.parse(`${date}T00:00:00Z`) / 1000 + openHour * 3600);
    const missing = r() < 0.002;
    // The market is shut on Good Friday, and on its venue's holidays of the years its published
    // calendar covers (src/domain/venues.ts, the service's own): the day's draws are made all the
    // same, so every other bar stays what it was before the holidays were added (a dividend due
    // that day goes ex on the next session).
    if (date === goodFriday(Number(date.slice(0, 4))) || venue?.holidays[date] !== undefined) {
      prevClose = close;
      price = close;
      continue;
    }
    bars.push({
      date,
      time,
      open: round(open, 2),
      high: round(high, 2),
      low: round(low, 2),
      close: round(close, 2),
      adjclose: round(close, 2),
      volume,
      missing,
    });
    // Ex-dividend on the first session on or after the 15th of Feb, May, Aug and Nov.
    const md = date.slice(5);
    if (paysDividend && ["02", "05", "08", "11"].includes(md.slice(0, 2)) && Number(md.slice(3)) >= 15) {
      const month = date.slice(0, 7);
      if (!dividends.some((d) => d.date.startsWith(month)))
        dividends.push({ date, time, amount: round(prevClose * yieldQ, 4) });
    }
    prevClose = close;
    price = close;
  }
  // Backward dividend adjustment: each close before an ex-date is scaled by (1 - D / previous close).
  let factor = 1;
  const divByDate = new Map(dividends.map((d) => [d.date, d.amount]));
  for (let i = bars.length - 1; i >= 0; i--) {
    const b = bars[i];
    if (!b) continue;
    b.adjclose = round(b.close * factor, 6);
    const div = divByDate.get(b.date);
    const prev = bars[i - 1];
    if (div !== undefined && prev) factor *= 1 - div / prev.close;
  }
  const split = SPLITS[symbol];
  const splits =
    split && split.date <= until
      ? [{ ...split, time: Math.round(Date.parse(`${split.date}T00:00:00Z`) / 1000 + openHour * 3600) }]
      : [];
  const out = { bars, splits, dividends };
  cache.set(key, out);
  return out;
}

/** A bar as the chart sends it: prices widened to float32, a missing slot as nulls. */
export interface ChartSlot {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  missing: boolean;
}

/** The chart's parallel arrays of `bars`: its timestamps and its quote columns (daily and intraday alike). */
export function chartColumns(bars: readonly ChartSlot[]) {
  const col = (pick: (b: ChartSlot) => number) => bars.map((b) => (b.missing ? null : Math.fround(pick(b))));
  return {
    timestamp: bars.map((b) => b.time),
    quote: [
      {
        open: col((b) => b.open),
        high: col((b) => b.high),
        low: col((b) => b.low),
        close: col((b) => b.close),
        volume: bars.map((b) => (b.missing ? null : b.volume)),
      },
    ],
  };
}
