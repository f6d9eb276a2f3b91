import { isoWithOffset } from "../../clock";
import { ECB_CURRENCIES, EUR, RATED_CURRENCIES } from "../../domain/fx/currencies";
import { pairRate, ROUNDING_RULE } from "../../domain/fx/rates";
import { addDays } from "../../domain/instants";
import type { Context } from "../../platform/context";
import { noRates, ratedCurrency, readRateBook } from "./read-book";

export interface FxLatestAnswer {
  base: string;
  /** The newest publication stored (the rates' day). */
  date: string;
  source: string;
  /** Units of each currency for one unit of the base. */
  rates: Record<string, string>;
  cross: string | null;
  rounding: string;
  retrieved_at: string;
  notes: string[];
}

/**
 * GET /fx/latest: every currency against `base` (default the euro) at the newest publication
 * stored, fetched first when the newest one out is not stored yet.
 */
export async function getFxLatest(ctx: Context, baseText = EUR): Promise<FxLatestAnswer> {
  const base = ratedCurrency(baseText, "base");
  const today = ctx.clock.today();
  const { book, latest, stored } = await readRateBook(ctx, ECB_CURRENCIES, addDays(today, -7), today);
  const day = book.latestDay();
  if (!day) return noRates(`${base}`, stored);
  const rates: Record<string, string> = {};
  let source = "";
  for (const c of RATED_CURRENCIES) {
    if (c === base) continue;
    const r = pairRate(book, { base, quote: c }, day);
    if (!r) continue;
    rates[c] = r.rate;
    source ||= r.source;
  }
  const notes: string[] = [];
  if (day < latest)
    notes.push(
      stored.failure
        ? `the ${latest} publication could not be fetched: ${stored.failure}`
        : `the ${latest} publication is not stored yet`,
    );
  return {
    base,
    date: day,
    source,
    rates,
    cross: base === EUR ? null : `through the euro: EUR/quote ÷ EUR/${base}`,
    rounding: ROUNDING_RULE,
    retrieved_at: isoWithOffset(ctx.clock.now()),
    notes,
  };
}
