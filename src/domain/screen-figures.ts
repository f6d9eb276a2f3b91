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

const numberOr = (v: number | string | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The figures among highlights (only validated values reach them); a missing one is null. */
export function screenFiguresOf(highlights: Readonly<Record<string, number | string | null>>): ScreenFigures {
  return {
    marketCap: numberOr(highlights.market_cap),
    peRatio: numberOr(highlights.pe_ratio),
    dividendYield: numberOr(highlights.dividend_yield),
  };
}

/** Whether any figure is known: a fetch without one stores nothing. */
export const hasFigures = (f: ScreenFigures) => f.marketCap !== null || f.peRatio !== null || f.dividendYield !== null;
