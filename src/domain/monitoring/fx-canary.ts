import { ECB_CURRENCIES } from "../fx/currencies";
import type { EcbRate } from "../fx/ecb-wire";
import { laterDay } from "../instants";
import { ECB } from "../provider-names";
import type { CanaryCheck } from "./canary-checks";
import type { ExpectedRange } from "./canary-references";

/**
 * The canary's look at the ECB's daily file: each reference pair within where it has traded
 * since 1999 (a rate outside is a unit or format change, not a market move), the publication no
 * older than the last one due, and every currency of the list present. Pure: the file's rates
 * and the day due in, the checks out.
 */
export const FX_CANARY_RANGES: Readonly<Record<string, ExpectedRange>> = {
  // EUR/USD 0.83 (2000) to 1.60 (2008); EUR/GBP 0.57 (2000) to 0.98 (2008);
  // EUR/JPY 89 (2000) to 175 (2024); EUR/CHF 0.93 (2024) to 1.68 (2007): each with a margin.
  USD: [0.75, 1.75],
  GBP: [0.5, 1.1],
  JPY: [80, 220],
  CHF: [0.75, 1.8],
};

/** A check as stored, less what the run adds (its latency, its instant). */
export type FxCheck = Omit<CanaryCheck, "latencyMs" | "at">;

export function fxCanaryChecks(rates: readonly EcbRate[], due: string): FxCheck[] {
  const day = rates.reduce((d, r) => laterDay(d, r.day), "");
  const ofDay = rates.filter((r) => r.day === day);
  const check = (
    ticker: string,
    field: string,
    value: number | null,
    expected: ExpectedRange | null,
    error: string | null,
  ): FxCheck => ({
    provider: ECB,
    ticker,
    field,
    passed: error === null,
    value,
    expected,
    error,
  });
  const out: FxCheck[] = [
    check(
      "EUR",
      "published",
      null,
      null,
      day >= due ? null : `the newest publication is ${day || "none"}, ${due}'s was due`,
    ),
  ];
  const missing = ECB_CURRENCIES.filter((c) => !ofDay.some((r) => r.currency === c));
  out.push(
    check(
      "EUR",
      "currencies",
      ofDay.length,
      null,
      missing.length ? `missing from the publication: ${missing.join(", ")}` : null,
    ),
  );
  for (const [currency, range] of Object.entries(FX_CANARY_RANGES)) {
    const rate = ofDay.find((r) => r.currency === currency);
    const value = rate ? Number(rate.rate) : null;
    const outside =
      value === null
        ? "not published"
        : value < range[0] || value > range[1]
          ? `outside ${range[0]} to ${range[1]}`
          : null;
    out.push(check(`EUR/${currency}`, "rate", value, range, outside));
  }
  return out;
}
