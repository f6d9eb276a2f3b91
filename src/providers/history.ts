import type { Bar } from "../domain/bars";

/** Daily history as a provider gave it: prices in `currency` (which may be a sub-unit such as GBp). */
export interface History {
  symbol: string;
  currency: string | null;
  exchange: string | null;
  bars: Bar[];
}

/** A source of daily bars; the ingestion tries them in order. */
export interface HistoryProvider {
  /** Source identifier recorded in `data_source` (`delayed_provider`, `stream_provider`). */
  readonly name: string;
  /** Split-adjusted daily bars of `symbol` dated `from` through `to` (inclusive, YYYY-MM-DD). */
  dailyHistory(symbol: string, from: string, to: string): Promise<History>;
}
