import { RATED_CURRENCIES } from "../fx/currencies";
import type { ColumnDef, Option, WidgetParam } from "./widget-types";

/** Shorthands the widget table of src/data/workspace-widgets.ts is written with. */

export const text = (
  paramName: string,
  value: string,
  label: string,
  description: string,
  options?: Option[],
): WidgetParam => ({
  paramName,
  type: "text",
  value,
  label,
  description,
  ...(options ? { options } : {}),
});
export const opts = (...values: string[]): Option[] => values.map((v) => ({ label: v, value: v }));
export const ticker = (value = "AAPL") => text("ticker", value, "Ticker", "A catalogue ticker (AAPL, MC.PA, SAP.DE)");
export const period = (value = "1y") =>
  text("period", value, "Period", "How far back", opts("1mo", "3mo", "6mo", "ytd", "1y", "2y", "5y", "10y", "max"));
/** The currency to show prices in: the listing's own (empty), or one of the 31 with ECB rates. */
export const convertTo = text(
  "convert",
  "",
  "Currency",
  "Show prices in this currency, at the ECB's reference rate of each day (empty: the listing's own)",
  [{ label: "Listing's own", value: "" }, ...opts(...RATED_CURRENCIES)],
);
export const resolution = text("resolution", "1D", "Resolution", "Bar size", opts("1D", "1W", "1M"));
export const forceRefresh: WidgetParam = {
  paramName: "force_refresh",
  type: "boolean",
  value: false,
  label: "Recompute",
  description: "Recompute instead of the cached answer",
};

export const col = (field: string, headerName: string, extra: Partial<ColumnDef> = {}): ColumnDef => ({
  field,
  headerName,
  ...extra,
});
export const numberCol = (field: string, headerName: string, extra: Partial<ColumnDef> = {}) =>
  col(field, headerName, { cellDataType: "number", ...extra });
export const changeCol = (field: string, headerName: string) => numberCol(field, headerName, { renderFn: "greenRed" });
/** A ratio (0.0215) shown as 2.15 %. */
export const ratioCol = (field: string, headerName: string) =>
  numberCol(field, headerName, { formatterFn: "normalizedPercent" });
export const table = (...columnsDefs: ColumnDef[]) => ({ table: { showAll: true, columnsDefs } });

export const DELAYED = "delayed_provider";
export const NEWS_SOURCES = [
  "yahoo_finance_rss",
  "google_news_rss",
  "finnhub",
  "marketaux",
  "newsapi",
  "alpha_vantage",
  "gdelt",
];

/** An article row's columns, with what the widget adds after the title (the language, or the tickers). */
export const newsTable = (extra: ColumnDef) =>
  table(
    col("published_at", "Published", { cellDataType: "dateString" }),
    col("title", "Title", { width: 420 }),
    extra,
    col("source", "Source"),
    col("url", "Link"),
  );

/** A valuation's rows (one per model, then the consensus), with the widget's own column before the note. */
export const valuationTable = (extra: ColumnDef) =>
  table(
    col("model", "Model", { pinned: "left" }),
    numberCol("intrinsic_value_per_share", "Value / share"),
    changeCol("upside_pct", "Upside %"),
    ratioCol("discount_rate", "Discount rate"),
    extra,
    col("reason", "Note"),
  );
