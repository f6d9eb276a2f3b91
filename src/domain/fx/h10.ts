import Decimal from "decimal.js";
import { MACRO } from "../provider-names";
import { CROSS_SIGNIFICANT_DIGITS, type EuroRate } from "./rates";

/**
 * The macro provider's daily exchange rates (the Federal Reserve's H.10: noon buying rates in New
 * York, business days, "." on US holidays) as euro rates, the fallback when the ECB cannot be read.
 * Each is quoted against the dollar: most as units per dollar (DEXJPUS: yen per dollar), a few as
 * dollars per unit (DEXUSUK: dollars per pound); the euro's (DEXUSEU) is dollars per euro. A
 * currency's euro rate of a day is crossed through the dollar of that same day, rounded half to
 * even to 10 significant digits. Pure.
 */
export const H10_USD_PER_EUR = "DEXUSEU";

/** Each currency's H.10 series, and whether it is quoted per dollar or in dollars. */
export const H10_SERIES: Readonly<Record<string, { id: string; quote: "per_usd" | "usd_per" }>> = {
  JPY: { id: "DEXJPUS", quote: "per_usd" },
  GBP: { id: "DEXUSUK", quote: "usd_per" },
  CHF: { id: "DEXSZUS", quote: "per_usd" },
  CAD: { id: "DEXCAUS", quote: "per_usd" },
  AUD: { id: "DEXUSAL", quote: "usd_per" },
  NZD: { id: "DEXUSNZ", quote: "usd_per" },
  SEK: { id: "DEXSDUS", quote: "per_usd" },
  DKK: { id: "DEXDNUS", quote: "per_usd" },
  NOK: { id: "DEXNOUS", quote: "per_usd" },
  HKD: { id: "DEXHKUS", quote: "per_usd" },
  CNY: { id: "DEXCHUS", quote: "per_usd" },
  INR: { id: "DEXINUS", quote: "per_usd" },
  KRW: { id: "DEXKOUS", quote: "per_usd" },
  MXN: { id: "DEXMXUS", quote: "per_usd" },
  BRL: { id: "DEXBZUS", quote: "per_usd" },
  ZAR: { id: "DEXSFUS", quote: "per_usd" },
  SGD: { id: "DEXSIUS", quote: "per_usd" },
  THB: { id: "DEXTHUS", quote: "per_usd" },
  MYR: { id: "DEXMAUS", quote: "per_usd" },
};

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * Euro rates from H.10 observations: `usdPerEur` by day, and each currency's own series by day.
 * A day without both (a US holiday, a series without it) gives no rate of that currency.
 */
export function euroRatesFromH10(
  usdPerEur: ReadonlyMap<string, string>,
  series: ReadonlyMap<string, ReadonlyMap<string, string>>,
): EuroRate[] {
  const out: EuroRate[] = [];
  for (const [day, eur] of usdPerEur) {
    out.push({ day, currency: "USD", rate: eur, source: MACRO });
    for (const [currency, values] of series) {
      const v = values.get(day);
      const how = H10_SERIES[currency];
      if (!v || !how) continue;
      const rate = how.quote === "per_usd" ? new D(v).times(eur) : new D(eur).div(v);
      out.push({ day, currency, rate: rate.toSignificantDigits(CROSS_SIGNIFICANT_DIGITS).toFixed(), source: MACRO });
    }
  }
  return out;
}
