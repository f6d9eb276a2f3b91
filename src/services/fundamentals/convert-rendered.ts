import {
  convertDocument,
  type DocumentRates,
  ratesNeeded,
  type UsedRate,
} from "../../domain/fundamentals/eodhd/convert-document";
import type { Section } from "../../domain/fundamentals/eodhd/place";
import type { FigureCurrencies } from "../../domain/fundamentals/figure-currency";
import { isRatedCurrency } from "../../domain/fx/currencies";
import { averageRate, type EuroRateBook, pairRate, subunitRate } from "../../domain/fx/rates";
import { unitOf } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import { convertTarget } from "../fx/convert";
import { readRateBook } from "../fx/read-book";

/** The rendered document's own statement of its currencies (the Currencies section). */
function statedCurrencies(doc: Section): FigureCurrencies {
  const c = (doc.Currencies ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  const trading = str(c.Trading) ?? "";
  return { trading, quoted: str(c.Quoted) ?? trading, reporting: str(c.Reporting) };
}

/** A currency or sub-unit (GBp) as the euro-rated currency and the factor its amounts take. */
function rated(unit: string): { currency: string; scale: number } | null {
  const u = unitOf(unit);
  return isRatedCurrency(u.currency.toUpperCase()) ? { currency: u.currency.toUpperCase(), scale: u.scale } : null;
}

/** The conversion's lookups over one rate book: newest, closing and average rates into `to`. */
function lookups(book: EuroRateBook, to: string, today: string, latest: string): DocumentRates {
  const scaled = (rate: string, scale: number) => (scale === 1 ? rate : subunitRate(rate, scale));
  const served = (unit: string, at: (base: string) => UsedRate | null): UsedRate | null => {
    const u = rated(unit);
    const r = u ? at(u.currency) : null;
    return r && u ? { ...r, rate: scaled(r.rate, u.scale) } : null;
  };
  return {
    to,
    newest: (unit) =>
      served(unit, (base) => {
        const r = pairRate(book, { base, quote: to }, today, { latestPublication: latest });
        return r && { rate: r.rate, published: r.published, source: r.source, basis: "newest" };
      }),
    closing: (unit, day) =>
      served(unit, (base) => {
        const r = pairRate(book, { base, quote: to }, day);
        return r && { rate: r.rate, published: r.published, source: r.source, basis: "closing" };
      }),
    average: (unit, from, until) =>
      served(unit, (base) => {
        const r = averageRate(book, { base, quote: to }, from, until);
        return (
          r && {
            rate: r.rate,
            published: `${r.first}..${r.last}`,
            source: r.source,
            basis: r.days ? `average of ${r.days} publications` : "identity",
          }
        );
      }),
  };
}

/**
 * A rendered document in another currency (domain/fundamentals/eodhd/convert-document): the rates
 * of its currencies from its earliest statement period to today made stored first (older years
 * go through the queue, their periods' figures null meanwhile, said in the notes), then every
 * money figure converted. Not cached: each answer reads the rates stored at its time.
 */
export async function convertRendered(ctx: Context, doc: Section, toCode: string): Promise<Section> {
  const to = convertTarget(toCode);
  const currencies = statedCurrencies(doc);
  const today = ctx.clock.today();
  const needed = ratesNeeded(doc, currencies);
  const bases = needed.currencies.flatMap((u) => rated(u)?.currency ?? []);
  const { book, latest, stored } = await readRateBook(ctx, [...bases, to], needed.from ?? today, today);
  const converted = convertDocument(doc, currencies, lookups(book, to, today, latest));
  const notes = (converted.Conversion as { Notes: string[] }).Notes;
  // Older years being fetched through the queue: their periods' figures are null meanwhile (never a 5xx).
  if (stored.queued.length)
    notes.push(
      `the rates of ${stored.queued.map((w) => w.year).join(", ")} are being fetched from the ECB: the figures of those periods are null until then; retry in a minute`,
    );
  if (stored.failure) notes.push(`the newest rates could not be fetched: ${stored.failure}`);
  return converted;
}
