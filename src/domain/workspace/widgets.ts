import { INTRADAY_INTERVALS } from "../intraday";
import { VENUES } from "../venues";
import { growthColumn } from "./tables";

/**
 * The discovery files the analytics workspace reads when a user adds this backend: widgets.json
 * (an object keyed by widget id) and apps.json (an array of dashboards). Endpoints are the query
 * forms (the workspace sends `?ticker=` and never fills a path). Ids, names and endpoints are kept
 * stable: a dashboard saved by a user refers to them.
 */

interface Option {
  label: string;
  value: string;
}

export interface WidgetParam {
  paramName: string;
  type: "text" | "number" | "boolean" | "date";
  value: string | number | boolean | null;
  label: string;
  description: string;
  options?: Option[];
  multiSelect?: boolean;
}

export interface ColumnDef {
  field: string;
  headerName: string;
  cellDataType?: "text" | "number" | "boolean" | "date" | "dateString" | "object";
  formatterFn?: "int" | "none" | "percent" | "normalized" | "normalizedPercent" | "dateToYear";
  renderFn?: "greenRed" | "titleCase" | "hoverCard" | "cellOnClick" | "columnColor" | "showCellChange";
  pinned?: "left" | "right";
  width?: number;
}

export interface Widget {
  name: string;
  description: string;
  category: string;
  subCategory?: string;
  type: "metric" | "chart" | "table";
  endpoint: string;
  gridData: { w: number; h: number };
  source: string[];
  params: WidgetParam[];
  raw?: boolean;
  refetchInterval?: number;
  staleTime?: number;
  data?: { table: { showAll?: boolean; columnsDefs: ColumnDef[] } };
}

const text = (
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
const opts = (...values: string[]): Option[] => values.map((v) => ({ label: v, value: v }));
const ticker = (value = "AAPL") => text("ticker", value, "Ticker", "A catalogue ticker (AAPL, MC.PA, SAP.DE)");
const period = (value = "1y") =>
  text("period", value, "Period", "How far back", opts("1mo", "3mo", "6mo", "ytd", "1y", "2y", "5y", "10y", "max"));
const resolution = text("resolution", "1D", "Resolution", "Bar size", opts("1D", "1W", "1M"));
const forceRefresh: WidgetParam = {
  paramName: "force_refresh",
  type: "boolean",
  value: false,
  label: "Recompute",
  description: "Recompute instead of the cached answer",
};

const col = (field: string, headerName: string, extra: Partial<ColumnDef> = {}): ColumnDef => ({
  field,
  headerName,
  ...extra,
});
const numberCol = (field: string, headerName: string, extra: Partial<ColumnDef> = {}) =>
  col(field, headerName, { cellDataType: "number", ...extra });
const changeCol = (field: string, headerName: string) => numberCol(field, headerName, { renderFn: "greenRed" });
/** A ratio (0.0215) shown as 2.15 %. */
const ratioCol = (field: string, headerName: string) =>
  numberCol(field, headerName, { formatterFn: "normalizedPercent" });
const table = (...columnsDefs: ColumnDef[]) => ({ table: { showAll: true, columnsDefs } });

const DELAYED = "delayed_provider";
const NEWS_SOURCES = [
  "yahoo_finance_rss",
  "google_news_rss",
  "finnhub",
  "marketaux",
  "newsapi",
  "alpha_vantage",
  "gdelt",
];

/** An article row's columns, with what the widget adds after the title (the language, or the tickers). */
const newsTable = (extra: ColumnDef) =>
  table(
    col("published_at", "Published", { cellDataType: "dateString" }),
    col("title", "Title", { width: 420 }),
    extra,
    col("source", "Source"),
    col("url", "Link"),
  );

/** A valuation's rows (one per model, then the consensus), with the widget's own column before the note. */
const valuationTable = (extra: ColumnDef) =>
  table(
    col("model", "Model", { pinned: "left" }),
    numberCol("intrinsic_value_per_share", "Value / share"),
    changeCol("upside_pct", "Upside %"),
    ratioCol("discount_rate", "Discount rate"),
    extra,
    col("reason", "Note"),
  );

/** widgets.json: the 19 widgets of the spec's table, then three of our own. */
export const WIDGETS: Readonly<Record<string, Widget>> = {
  svc_quote: {
    name: "Quote",
    description:
      "Last price with its change, previous close, day range and volume; realtime once the ticker is subscribed, else the delayed quote",
    category: "Equity",
    subCategory: "Price",
    type: "metric",
    endpoint: "workspace/quote",
    gridData: { w: 12, h: 5 },
    source: [DELAYED, "stream_provider"],
    params: [ticker()],
    refetchInterval: 60_000,
    staleTime: 60_000,
  },
  svc_macro_rates: {
    name: "Risk-free rate",
    description: "The 10-year US Treasury yield the valuations use, with its observation date",
    category: "Macro",
    type: "metric",
    endpoint: "workspace/macro/rates",
    gridData: { w: 10, h: 5 },
    source: ["macro_provider"],
    params: [],
  },
  svc_eod: {
    name: "End-of-day prices",
    description: "Daily candlesticks with volume of a catalogue listing (stored on first request)",
    category: "Equity",
    subCategory: "Price",
    type: "chart",
    endpoint: "workspace/eod",
    gridData: { w: 28, h: 14 },
    source: [DELAYED],
    params: [ticker(), period()],
    raw: true,
  },
  svc_history: {
    name: "Price history",
    description: "Candlesticks with volume of any delayed-provider symbol, daily, weekly or monthly",
    category: "Equity",
    subCategory: "Price",
    type: "chart",
    endpoint: "workspace/ticker/history",
    gridData: { w: 28, h: 14 },
    source: [DELAYED],
    params: [
      text("symbol", "SPY", "Symbol", "A delayed-provider symbol (SPY, ^GSPC, EURUSD=X)"),
      period(),
      text("interval", "1d", "Interval", "Bar size", opts("1d", "1wk", "1mo")),
    ],
    raw: true,
  },
  svc_technical: {
    name: "Indicator",
    description:
      "One technical indicator with the candles it is computed on: averages and bands over the price, oscillators below",
    category: "Technical",
    type: "chart",
    endpoint: "workspace/technical",
    gridData: { w: 28, h: 16 },
    source: [DELAYED],
    params: [
      ticker(),
      text(
        "indicator",
        "rsi",
        "Indicator",
        "Indicator name",
        opts(
          "sma",
          "ema",
          "wma",
          "dema",
          "tema",
          "rsi",
          "macd",
          "stoch",
          "cci",
          "roc",
          "mom",
          "bbands",
          "atr",
          "kc",
          "obv",
          "ad",
          "mfi",
        ),
      ),
      resolution,
    ],
    raw: true,
  },
  svc_technical_multi: {
    name: "Indicators",
    description: "Several indicators over the candles (e.g. sma_20,ema_50,rsi_14: a suffix sets the length)",
    category: "Technical",
    type: "chart",
    endpoint: "workspace/technical/multi",
    gridData: { w: 28, h: 18 },
    source: [DELAYED],
    params: [
      ticker(),
      text("indicators", "sma_20,ema_50,rsi_14", "Indicators", "Comma-separated, e.g. sma_20,bbands,macd"),
      resolution,
    ],
    raw: true,
  },
  svc_technical_chart: {
    name: "Technical chart",
    description: "Candles and indicator columns on the same dates (the last 200 bars by default)",
    category: "Technical",
    type: "chart",
    endpoint: "workspace/technical/chart",
    gridData: { w: 28, h: 18 },
    source: [DELAYED],
    params: [
      ticker(),
      text("indicators", "sma_20,rsi_14", "Indicators", "Comma-separated, e.g. sma_20,rsi_14,macd"),
      resolution,
    ],
    raw: true,
  },
  svc_fundamentals: {
    name: "Fundamentals",
    description: "The fundamentals document, one row per figure, each with the source it came from",
    category: "Equity",
    subCategory: "Fundamentals",
    type: "table",
    endpoint: "workspace/fundamental",
    gridData: { w: 20, h: 16 },
    source: [DELAYED, "scraped_businessinsider", "scraped_onvista"],
    params: [ticker("MC.PA")],
    data: table(
      col("section", "Section", { pinned: "left" }),
      col("field", "Field"),
      col("value", "Value"),
      col("source", "Source"),
    ),
  },
  svc_fundamentals_deep: {
    name: "Deep fundamentals",
    description: "Highlights, statements, earnings and ratings stored by the deep enrichment, one row per figure",
    category: "Equity",
    subCategory: "Fundamentals",
    type: "table",
    endpoint: "workspace/fundamental/deep",
    gridData: { w: 20, h: 16 },
    source: [DELAYED],
    params: [
      ticker("MC.PA"),
      text(
        "sections",
        "highlights",
        "Sections",
        "Which parts",
        opts("all", "highlights", "statements", "earnings", "ratings"),
      ),
    ],
    data: table(col("section", "Section", { pinned: "left" }), col("field", "Field"), col("value", "Value")),
  },
  svc_quotes_batch: {
    name: "Quotes",
    description: "Price, change and volume of up to 20 tickers",
    category: "Equity",
    subCategory: "Price",
    type: "table",
    endpoint: "workspace/quotes",
    gridData: { w: 24, h: 10 },
    source: [DELAYED, "stream_provider"],
    params: [
      { ...text("tickers", "AAPL,MSFT,MC.PA,SAP.DE", "Tickers", "Comma-separated, 20 at most"), multiSelect: true },
    ],
    refetchInterval: 60_000,
    staleTime: 60_000,
    data: table(
      col("ticker", "Ticker", { pinned: "left" }),
      numberCol("price", "Price"),
      changeCol("change", "Change"),
      changeCol("change_pct", "Change %"),
      numberCol("previous_close", "Prev. close"),
      numberCol("volume", "Volume", { formatterFn: "int" }),
      col("source", "Source"),
      col("error", "Error"),
    ),
  },
  svc_screener: {
    name: "Screener",
    description: "Catalogue instruments whose last indicator value meets a condition (RSI under 30 by default)",
    category: "Technical",
    type: "table",
    endpoint: "workspace/technical/screen",
    gridData: { w: 20, h: 12 },
    source: [DELAYED],
    params: [
      text(
        "indicator",
        "rsi",
        "Indicator",
        "Indicator name",
        opts("rsi", "cci", "roc", "mom", "mfi", "atr", "sma", "ema"),
      ),
      text("operator", "lt", "Operator", "Comparison", opts("lt", "gt", "lte", "gte")),
      { paramName: "value", type: "number", value: 30, label: "Value", description: "Threshold" },
      { paramName: "period", type: "number", value: 14, label: "Length", description: "Bars in the window" },
    ],
    data: table(
      col("ticker", "Ticker", { pinned: "left" }),
      col("name", "Name"),
      col("isin", "ISIN"),
      col("indicator", "Indicator"),
      numberCol("value", "Last value"),
    ),
  },
  svc_screener_conditions: {
    name: "Screener (several conditions)",
    description:
      "Catalogue instruments meeting every condition: snapshotted indicators, the close, market cap, P/E, dividend yield, sector, exchange",
    category: "Technical",
    type: "table",
    endpoint: "workspace/technical/screen/conditions",
    gridData: { w: 20, h: 12 },
    source: [DELAYED],
    params: [
      text(
        "where",
        "rsi_14 < 30 and close > sma_200 and market_cap > 10bn",
        "Conditions",
        "Joined by `and` or `,`: rsi_14 < 30, close > sma_200, market_cap > 10bn, dividend_yield >= 3%, sector = Technology",
      ),
      { paramName: "limit", type: "number", value: 50, label: "Rows", description: "At most 1,000" },
    ],
    data: table(
      col("ticker", "Ticker", { pinned: "left" }),
      col("name", "Name"),
      col("isin", "ISIN"),
      col("as_of", "As of"),
      numberCol("close", "Close"),
      col("currency", "Currency"),
      col("tested", "Values tested"),
      col("figures_as_of", "Figures as of"),
      col("missing_session", "Missing session"),
    ),
  },
  svc_news: {
    name: "News",
    description: "A ticker's news from seven providers, duplicates merged, newest first",
    category: "News",
    type: "table",
    endpoint: "workspace/news",
    gridData: { w: 24, h: 14 },
    source: NEWS_SOURCES,
    params: [
      ticker(),
      { paramName: "limit", type: "number", value: 20, label: "Articles", description: "At most 100" },
    ],
    data: newsTable(col("language", "Lang.")),
  },
  svc_news_feed: {
    name: "News feed",
    description: "The newest stored articles across instruments (20 by default)",
    category: "News",
    type: "table",
    endpoint: "workspace/news/feed",
    gridData: { w: 24, h: 14 },
    source: NEWS_SOURCES,
    params: [{ paramName: "limit", type: "number", value: 20, label: "Articles", description: "At most 1000" }],
    data: newsTable(col("tickers", "Tickers")),
  },
  svc_dcf: {
    name: "DCF valuation",
    description: "Intrinsic value per share from free cash flows with the default assumptions, and its upside",
    category: "Valuation",
    type: "table",
    endpoint: "workspace/dcf",
    gridData: { w: 20, h: 8 },
    source: [DELAYED, "macro_provider"],
    params: [ticker("MC.PA"), forceRefresh],
    data: valuationTable(col("discount_rate_basis", "Basis")),
  },
  svc_dcf_compare: {
    name: "Valuation models",
    description: "Free-cash-flow, earnings and dividend models side by side, with their weighted consensus",
    category: "Valuation",
    type: "table",
    endpoint: "workspace/dcf/compare",
    gridData: { w: 20, h: 9 },
    source: [DELAYED, "macro_provider"],
    params: [ticker("MC.PA"), forceRefresh],
    data: valuationTable(ratioCol("weight", "Weight")),
  },
  svc_dcf_sensitivity: {
    name: "DCF sensitivity",
    description: "Value per share for each discount rate (rows) and terminal growth (columns)",
    category: "Valuation",
    type: "table",
    endpoint: "workspace/dcf/sensitivity",
    gridData: { w: 20, h: 10 },
    source: [DELAYED, "macro_provider"],
    params: [ticker("MC.PA"), text("model", "fcf", "Model", "The model with a terminal growth", opts("fcf", "ddm"))],
    // The widget's grid is the route's default one: growth 1 % to 5 % by 1 %.
    data: table(
      ratioCol("discount_rate", "Discount rate"),
      ...[0.01, 0.02, 0.03, 0.04, 0.05].map((g) => numberCol(growthColumn(g), `g = ${g * 100} %`)),
    ),
  },
  svc_insider_transactions: {
    name: "Insider transactions",
    description: "Form 4 purchases, sales and awards of a US issuer's insiders, newest first",
    category: "Equity",
    subCategory: "Ownership",
    type: "table",
    endpoint: "workspace/insider-transactions",
    gridData: { w: 24, h: 12 },
    source: ["sec_edgar"],
    params: [ticker(), { paramName: "limit", type: "number", value: 50, label: "Rows", description: "At most 1000" }],
    data: table(
      col("transaction_date", "Date", { cellDataType: "dateString" }),
      col("owner_name", "Insider", { pinned: "left" }),
      col("relationship", "Relationship"),
      col("code", "Code"),
      col("code_meaning", "Meaning"),
      numberCol("shares", "Shares", { formatterFn: "int" }),
      numberCol("price", "Price"),
    ),
  },
  svc_etf_details: {
    name: "ETF holdings",
    description: "A fund's top holdings with its costs, yield and assets",
    category: "ETF",
    type: "table",
    endpoint: "workspace/etf/details",
    gridData: { w: 20, h: 12 },
    source: [DELAYED],
    params: [text("isin", "IE00B4L5Y983", "ISIN", "The fund's ISIN")],
    data: table(
      numberCol("rank", "#", { width: 60 }),
      col("holding", "Holding", { pinned: "left" }),
      col("symbol", "Symbol"),
      ratioCol("weight", "Weight"),
      ratioCol("expense_ratio", "Expense ratio"),
    ),
  },
  svc_index_constituents: {
    name: "Index members",
    description: "The stored members of an index, heaviest first",
    category: "Equity",
    subCategory: "Indices",
    type: "table",
    endpoint: "workspace/index/constituents",
    gridData: { w: 20, h: 14 },
    source: ["catalogue"],
    params: [
      text(
        "index_name",
        "cac40",
        "Index",
        "Code or alias",
        opts("cac40", "dax", "aex", "ftsemib", "eurostoxx50", "nasdaq100"),
      ),
    ],
    data: table(
      col("ticker", "Ticker", { pinned: "left" }),
      col("name", "Name"),
      col("sector", "Sector"),
      col("country", "Country"),
      ratioCol("weight", "Weight"),
    ),
  },
  // Three widgets beyond the spec's nineteen, where a picture reads better than the routes' tables.
  svc_dividends: {
    name: "Dividends",
    description: "Cash dividends of a catalogue listing by ex-date, stored with its prices",
    category: "Equity",
    subCategory: "Corporate actions",
    type: "chart",
    endpoint: "workspace/dividends",
    gridData: { w: 20, h: 10 },
    source: [DELAYED],
    params: [ticker()],
    raw: true,
  },
  svc_intraday: {
    name: "Intraday prices",
    description:
      "Candlesticks with volume of a catalogue listing's last session (or a window) at 1m, 5m, 15m or 1h, from the realtime stream and the delayed provider",
    category: "Equity",
    subCategory: "Price",
    type: "chart",
    endpoint: "workspace/intraday",
    gridData: { w: 28, h: 14 },
    source: ["stream_provider", DELAYED],
    params: [ticker(), text("interval", "5m", "Interval", "Bar size", opts(...INTRADAY_INTERVALS))],
    raw: true,
    // A session under way changes by the minute (the route's answer lives 60 s).
    refetchInterval: 60_000,
    staleTime: 60_000,
  },
  svc_exchange_calendar: {
    name: "Exchange calendar",
    description: "A venue's holidays and early closes this year and next, from its published calendar",
    category: "Market",
    subCategory: "Calendar",
    type: "table",
    endpoint: "workspace/exchanges/calendar",
    gridData: { w: 20, h: 12 },
    source: ["Venue calendars"],
    params: [text("code", "XETRA", "Exchange", "The catalogue's exchange code", opts(...Object.keys(VENUES)))],
    data: table(
      col("date", "Date", { pinned: "left" }),
      col("weekday", "Day"),
      col("kind", "Kind"),
      col("name", "Holiday"),
      col("close", "Closes at (local)"),
    ),
  },
};

/** One placement of a widget on a dashboard tab (grid units: 40 columns). */
interface Placement {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  state?: { params: Record<string, string> };
  groups?: string[];
}

export interface App {
  name: string;
  description: string;
  img: string;
  img_dark: string;
  img_light: string;
  allowCustomization: boolean;
  tabs: Record<string, { id: string; name: string; layout: Placement[] }>;
  groups: { name: string; type: "param"; paramName: string; defaultValue: string; widgetIds: string[] }[];
  prompts: string[];
}

/** apps.json: two dashboards, European markets, and the screener with the macro view. */
export const APPS: readonly App[] = [
  {
    name: "EU markets",
    description: "A European share: its quote, prices, fundamentals, valuation and news, one ticker for all",
    img: "",
    img_dark: "",
    img_light: "",
    allowCustomization: true,
    tabs: {
      overview: {
        id: "overview",
        name: "Overview",
        layout: [
          { i: "svc_quote", x: 0, y: 2, w: 12, h: 5, groups: ["Group 1"] },
          { i: "svc_macro_rates", x: 12, y: 2, w: 10, h: 5 },
          {
            i: "svc_quotes_batch",
            x: 22,
            y: 2,
            w: 18,
            h: 10,
            state: { params: { tickers: "MC.PA,SAP.DE,ASML.AS,OR.PA,SIE.DE" } },
          },
          { i: "svc_eod", x: 0, y: 7, w: 22, h: 14, groups: ["Group 1"] },
          { i: "svc_dcf_compare", x: 22, y: 12, w: 18, h: 9, groups: ["Group 1"] },
          { i: "svc_fundamentals", x: 0, y: 21, w: 20, h: 16, groups: ["Group 1"] },
          { i: "svc_news", x: 20, y: 21, w: 20, h: 16, groups: ["Group 1"] },
        ],
      },
      index: {
        id: "index",
        name: "CAC 40",
        layout: [{ i: "svc_index_constituents", x: 0, y: 2, w: 40, h: 16, state: { params: { index_name: "cac40" } } }],
      },
    },
    groups: [
      {
        name: "Group 1",
        type: "param",
        paramName: "ticker",
        defaultValue: "MC.PA",
        widgetIds: ["svc_quote", "svc_eod", "svc_dcf_compare", "svc_fundamentals", "svc_news"],
      },
    ],
    prompts: [],
  },
  {
    name: "Screener and macro",
    description: "Oversold catalogue shares, the risk-free rate and the news, with the quote and chart of one ticker",
    img: "",
    img_dark: "",
    img_light: "",
    allowCustomization: true,
    tabs: {
      screen: {
        id: "screen",
        name: "Screener",
        layout: [
          { i: "svc_screener", x: 0, y: 2, w: 18, h: 14 },
          { i: "svc_macro_rates", x: 18, y: 2, w: 10, h: 5 },
          { i: "svc_quote", x: 28, y: 2, w: 12, h: 5, groups: ["Group 1"] },
          { i: "svc_technical_chart", x: 18, y: 7, w: 22, h: 18, groups: ["Group 1"] },
          { i: "svc_news_feed", x: 0, y: 16, w: 18, h: 14 },
        ],
      },
    },
    groups: [
      {
        name: "Group 1",
        type: "param",
        paramName: "ticker",
        defaultValue: "AAPL",
        widgetIds: ["svc_quote", "svc_technical_chart"],
      },
    ],
    prompts: [],
  },
];
