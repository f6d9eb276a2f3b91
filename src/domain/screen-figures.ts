import { finiteOrNull } from "./numbers";
import { currencyScale } from "./provider-symbols";

/**
 * The stored figures a screen of several conditions compares, read from validated highlights
 * (snake_case, ratios as ratios). Pure.
 */
export interface ScreenFigures {
  marketCap: number | null;
  peRatio: number | null;
  dividendYield: number | null;
}

/** Each figure's name in a `where` and in the highlights, and its column. */
export const FIGURE_FIELDS = {
  market_cap: "marketCap",
  pe_ratio: "peRatio",
  dividend_yield: "dividendYield",
} as const satisfies Record<string, keyof ScreenFigures>;
export type FigureField = keyof typeof FIGURE_FIELDS;

/** The figures among highlights (only validated values reach them); a missing one is null. */
export function screenFiguresOf(highlights: Readonly<Record<string, number | string | null>>): ScreenFigures {
  return {
    marketCap: finiteOrNull(highlights.market_cap),
    peRatio: finiteOrNull(highlights.pe_ratio),
    dividendYield: finiteOrNull(highlights.dividend_yield),
  };
}

/** Figures as a screen joins them: under the currency of the listing whose close they go with. */
export interface ListingFigures {
  currency: string;
  figures: ScreenFigures;
}

/**
 * The figures of a quote in `quoted` for a listing in `listingCurrency`: under the listing's
 * currency when the provider quotes it or its sub-unit (GBp for a GBP line), where the market
 * capitalisation of a sub-unit quote is left unknown (its unit is not verified against a real
 * answer; P/E and yield have none); under the quote's own currency otherwise (a screen of that
 * listing does not read it). Null when neither currency is known or no figure is.
 */
export function figuresForListing(
  quoted: string | null,
  listingCurrency: string | null,
  figures: ScreenFigures,
): ListingFigures | null {
  const scale = quoted && listingCurrency ? currencyScale(quoted, listingCurrency) : null;
  const currency = scale !== null ? listingCurrency : (quoted ?? listingCurrency);
  const kept = scale === 0.01 ? { ...figures, marketCap: null } : figures;
  return currency && hasFigures(kept) ? { currency, figures: kept } : null;
}

/** Whether any figure is known: a fetch without one stores nothing. */
export const hasFigures = (f: ScreenFigures) => f.marketCap !== null || f.peRatio !== null || f.dividendYield !== null;
