import Decimal from "decimal.js";

/**
 * A metric widget's tile (the workspace's metric format): a delta is a number or a numeric string
 * ("-2.3", never "2.3%": the workspace reads its sign for the colour and its value as a number).
 */
export interface Tile {
  label: string;
  value: number | string;
  delta: number | string | null;
}

/** The quote fields the tiles read (the service's Quote, decimals as strings). */
export interface QuoteFigures {
  ticker: string;
  price: string;
  change: string;
  change_pct: string;
  previous_close: string | null;
  high: string | null;
  low: string | null;
  volume: number | null;
}

const signed = (d: Decimal) => (d.isPositive() && !d.isZero() ? `+${d.toFixed()}` : d.toFixed());

/**
 * The quote widget's tiles (spec: the quote tiles): the price with its percent change, the change
 * as a signed string with its percent change as a signed numeric string (in percent, without the
 * sign "%", which would make it no number to the workspace), then previous close, day high, day
 * low and volume; a tile without a value is left out. Numbers keep the quote's decimals.
 * @example quoteTiles({ ticker: "AAPL", price: "231.45", change: "2.35", change_pct: "1.03", ... })[1]
 *   // { label: "Change", value: "+2.35", delta: "+1.03" }
 */
export function quoteTiles(q: QuoteFigures): Tile[] {
  const pct = new Decimal(q.change_pct);
  const tiles: (Tile | null)[] = [
    { label: `${q.ticker} Price`, value: Number(q.price), delta: pct.toNumber() },
    { label: "Change", value: signed(new Decimal(q.change)), delta: signed(pct) },
    q.previous_close === null ? null : { label: "Previous Close", value: Number(q.previous_close), delta: null },
    q.high === null ? null : { label: "Day High", value: Number(q.high), delta: null },
    q.low === null ? null : { label: "Day Low", value: Number(q.low), delta: null },
    q.volume === null ? null : { label: "Volume", value: q.volume, delta: null },
  ];
  return tiles.filter((t): t is Tile => t !== null);
}

/** The macro widget's tiles: the risk-free rate in percent, with its observation date, or a tile saying there is none. */
export function macroTiles(rate: { label: string; value: string; observation_date: string } | null): Tile[] {
  if (rate === null) return [{ label: "10-Year Treasury", value: "no value yet", delta: null }];
  return [
    { label: rate.label, value: `${new Decimal(rate.value).mul(100).toFixed(2)}%`, delta: null },
    { label: "Observed", value: rate.observation_date, delta: null },
  ];
}
