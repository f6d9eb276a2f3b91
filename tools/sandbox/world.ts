import { isinCheckDigit } from "../../src/domain/isin";
import { localInstant, VENUES, type Venue } from "../../src/domain/venues";
import type { SimSymbol } from "./market-data";

/**
 * The sandbox's world beyond the seed catalogue: WORLD_SIZE deterministic instruments with valid
 * ISINs over every supported venue, which the simulated providers know (search, chart, the
 * directory that states ISINs) and the catalogue does not until someone adds them. On purpose:
 * - every 20th is an ETF whose ISIN the delayed provider's search does not find (as with real UCITS funds);
 * - every 9th share also trades on Xetra in euros, every 13th also on Frankfurt (a venue the catalogue lacks);
 * - every 50th trades only on a venue the catalogue lacks (Warsaw, or India's NSE);
 * - UNKNOWN_ISINS are valid ISINs that no provider knows.
 * The same index always gives the same instrument: tests and benchmarks name them by `worldInstrument(i)`.
 */
export const WORLD_SIZE = 10_000;

export interface WorldInstrument {
  index: number;
  isin: string;
  name: string;
  quoteType: "EQUITY" | "ETF";
  /** Its lines at the providers, the first the home one. */
  lines: SimSymbol[];
  /** Whether the delayed provider's search finds it by ISIN. */
  isinSearchable: boolean;
}

/** Venues the catalogue does not support, where some world instruments trade. */
const ELSEWHERE = {
  WSE: {
    suffix: "WA",
    yahooExchange: "WSE",
    fullExchangeName: "Warsaw",
    currency: "PLN",
    timeZone: "Europe/Warsaw",
    open: "09:00",
    country: "PL",
  },
  NSI: {
    suffix: "NS",
    yahooExchange: "NSI",
    fullExchangeName: "NSE",
    currency: "INR",
    timeZone: "Asia/Kolkata",
    open: "09:15",
    country: "IN",
  },
  FRA: {
    suffix: "F",
    yahooExchange: "FRA",
    fullExchangeName: "Frankfurt",
    currency: "EUR",
    timeZone: "Europe/Berlin",
    open: "08:00",
    country: "DE",
  },
} as const;

const SYLLABLES =
  "ar bel cor dan el fin gar hal ist jor kal lum mar nor ost pra quin ros sal tor ul ver wes xan yor zen".split(" ");
const FORMS: Record<string, string> = {
  US: "Inc.",
  CA: "Corp.",
  GB: "plc",
  IE: "plc",
  FR: "SA",
  BE: "SA",
  PT: "SA",
  ES: "SA",
  NL: "NV",
  DE: "AG",
  AT: "AG",
  CH: "AG",
  IT: "SpA",
  SE: "AB",
  DK: "A/S",
  NO: "ASA",
  FI: "Oyj",
  JP: "Co., Ltd.",
  HK: "Holdings Ltd",
  AU: "Ltd",
  PL: "SA",
  IN: "Ltd",
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const letters = (n: number, width: number) => {
  let out = "";
  for (let k = 0; k < width; k++, n = Math.floor(n / 26)) out = String.fromCharCode(65 + (n % 26)) + out;
  return out;
};

/** A valid ISIN of a country from a number: nine characters of body, then the check digit. */
export function worldIsin(country: string, n: number, mark = "W"): string {
  const first11 = `${country}${mark}${String(n).padStart(8, "0")}`;
  return `${first11}${isinCheckDigit(first11)}`;
}

/** Valid ISINs no simulated provider knows (another body mark than the world's). */
export const UNKNOWN_ISINS: readonly string[] = ["US", "DE", "GB", "JP", "FR", "CA", "AU", "CH"].map((c, i) =>
  worldIsin(c, 90_000 + i, "N"),
);

const SUPPORTED: readonly Venue[] = Object.values(VENUES);

/**
 * A venue's open as hours from the session day's midnight UTC (negative east of UTC when the open
 * falls the evening before, as Sydney's does) and its offset from UTC in seconds, in January.
 */
function timing(timeZone: string, open: string) {
  const gmtoffset =
    (Date.parse("2026-01-15T00:00:00Z") - localInstant("2026-01-15", "00:00", timeZone).getTime()) / 1000;
  const [h, m] = open.split(":").map(Number);
  return { openUtcHour: (h ?? 0) + (m ?? 0) / 60 - gmtoffset / 3600, gmtoffset };
}

/** The ticker base of an instrument on a venue: Tokyo and Hong Kong number their lines, others spell them. */
function baseTicker(i: number, venue: { code?: string; suffix: string | null }, perVenue: number): string {
  if (venue.code === "TSE") return String(2000 + perVenue);
  if (venue.code === "HKEX") return String(3000 + perVenue).padStart(4, "0");
  return `Z${letters(i, 3)}`;
}

function line(
  base: string,
  inst: { isin: string; name: string; quoteType: "EQUITY" | "ETF" },
  at: {
    code: string;
    suffix: string | null;
    yahooExchange: string;
    fullExchangeName: string;
    currency: string;
    timeZone: string;
    open: string;
    streamExchange: string;
  },
): SimSymbol {
  const symbol = at.suffix ? `${base}.${at.suffix}` : base;
  const quoted = at.currency === "GBP" ? "GBp" : at.currency;
  return {
    symbol,
    streamSymbol: `${at.streamExchange}:${base}`,
    isin: inst.isin,
    name: inst.name,
    currency: quoted,
    yahooExchange: at.yahooExchange,
    fullExchangeName: at.fullExchangeName,
    quoteType: inst.quoteType,
    exchange: at.code,
    ...timing(at.timeZone, at.open),
    timezone: at.timeZone,
  };
}

const supportedAt = (v: Venue) => ({
  code: v.code,
  suffix: v.suffix,
  yahooExchange: v.delayedExchanges[0] ?? v.code,
  fullExchangeName: v.delayedExchangeName,
  currency: v.currency,
  timeZone: v.timeZone,
  open: v.open,
  streamExchange: v.streamExchange,
});

const elsewhereAt = (code: keyof typeof ELSEWHERE) => {
  const e = ELSEWHERE[code];
  return { code, ...e, streamExchange: code };
};

/** The world instrument of an index (0 <= i < WORLD_SIZE). */
export function worldInstrument(i: number): WorldInstrument {
  const elsewhere = i % 50 === 7 ? (i % 100 === 7 ? "WSE" : "NSI") : null;
  const venue = SUPPORTED[i % SUPPORTED.length] as Venue;
  const country = elsewhere ? ELSEWHERE[elsewhere].country : (venue.countries[0] ?? "US");
  const etf = i % 10 === 3;
  const word = cap(
    SYLLABLES[i % 26] + (SYLLABLES[Math.floor(i / 26) % 26] ?? "") + (SYLLABLES[Math.floor(i / 676) % 26] ?? ""),
  );
  const name = etf ? `${word} World Equity UCITS ETF` : `${word} ${FORMS[country] ?? "Ltd"}`;
  const inst = {
    isin: worldIsin(etf ? "IE" : country, i),
    name,
    quoteType: (etf ? "ETF" : "EQUITY") as "ETF" | "EQUITY",
  };
  const perVenue = Math.floor(i / SUPPORTED.length);
  const lines: SimSymbol[] = [];
  if (elsewhere) lines.push(line(`Z${letters(i, 3)}`, inst, elsewhereAt(elsewhere)));
  else {
    lines.push(line(baseTicker(i, venue, perVenue), inst, supportedAt(venue)));
    const base = `Z${letters(i, 3)}`;
    if (!etf && i % 9 === 0 && venue.code !== "XETRA" && VENUES.XETRA)
      lines.push(line(base, inst, supportedAt(VENUES.XETRA)));
    if (!etf && i % 13 === 0) lines.push(line(base, inst, elsewhereAt("FRA")));
  }
  return { index: i, ...inst, lines, isinSearchable: !(etf && i % 20 === 3) };
}

/** Every world instrument, built once per process (a few milliseconds). */
export const WORLD: readonly WorldInstrument[] = Array.from({ length: WORLD_SIZE }, (_, i) => worldInstrument(i));
