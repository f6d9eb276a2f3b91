// What the chart widgets share: the answer (figure, rows or why empty), bars as candles, and the nets' write flag.
import {
  type Candle,
  emptyFigure,
  type Figure,
  type MarketChart,
  marketFigure,
  type Theme,
} from "../../domain/workspace/figures";
import type { Row } from "../../domain/workspace/tables";

/** The figure, or with raw=true the rows it is drawn from; an empty chart says why instead of failing. */
export function answer(
  q: { theme: Theme; raw: boolean },
  chart: MarketChart,
  rows: Row[],
  emptyReason: string,
): Figure | Row[] {
  if (q.raw) return rows;
  return rows.length === 0 ? emptyFigure(emptyReason, q.theme) : marketFigure(chart, q.theme);
}

export const day = (t: string) => t.slice(0, 10);
/** A bar row as a candle (the rows raw=true answers carry the adjusted close too). */
export const candleOf = ({ adj_close, ...candle }: Row & Candle): Candle => candle;

/** For the generated nets: a technical widget's first view of a ticker stores its prices (an ingestion). */
export const STORES_PRICES = { "x-writes": true };
