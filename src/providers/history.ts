import type { Bar } from "../domain/bars";
import type { Dividend, Split } from "../domain/corporate-actions";

/** Daily history as a provider gave it: prices in `currency` (which may be a sub-unit such as GBp). */
export interface History {
  symbol: string;
  currency: string | null;
  exchange: string | null;
  bars: Bar[];
  /**
   * The window's dividends (in `currency`) and splits, from a provider that sends them (the delayed
   * one); a fund's capital gains distributions where the provider sends them apart.
   */
  events?: { dividends: Dividend[]; splits: Split[]; capitalGains?: Dividend[] };
}

/** A source of daily bars; the ingestion tries them in order. */
export interface HistoryProvider {
  /** Source identifier recorded in `data_source` (`delayed_provider`, `stream_provider`). */
  readonly name: string;
  /** Split-adjusted daily bars of `symbol` dated `from` through `to` (inclusive, YYYY-MM-DD). */
  dailyHistory(symbol: string, from: string, to: string): Promise<History>;
}
