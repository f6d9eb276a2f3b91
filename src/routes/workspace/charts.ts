import { z } from "@hono/zod-openapi";
import type { Resolution } from "../../domain/indicators/request";
import { isoInstant } from "../../domain/instants";
import { INTRADAY_INTERVALS } from "../../domain/intraday";
import {
  type Candle,
  columnsFigure,
  emptyFigure,
  type Figure,
  type MarketChart,
  marketFigure,
  type Theme,
} from "../../domain/workspace/figures";
import { columnsChart, indicatorChart, resultKey } from "../../domain/workspace/indicator-figures";
import { flatRows, type Row } from "../../domain/workspace/tables";
import type { Context } from "../../platform/context";
import { getCorporateActions } from "../../services/corporate-actions/get-corporate-actions";
import { getEod } from "../../services/eod/get-eod";
import { getTickerHistory } from "../../services/history/get-ticker-history";
import { getIntraday } from "../../services/intraday/get-intraday";
import { CHART_DEFAULT_LIMIT, getChart } from "../../services/technical/get-chart";
import { getIndicator } from "../../services/technical/get-indicator";
import { getMulti, hasPrices } from "../../services/technical/get-multi";
import { withStoredPrices } from "../../services/workspace/first-view";
import type { EodAnswer } from "../eod/schema";
import { historyRows } from "../history/get-ticker-history";
import { DateParam, ListingChoiceQuery, PeriodParam, SymbolParam, TickerParam } from "../params";
import { IndicatorQuery } from "../technical/get";
import { IndicatorListParam, intParam, seriesWindow, WindowQuery } from "../technical/schema";
import { ChartQuery, type WidgetRoutes } from "./define";

/** The figure, or with raw=true the rows it is drawn from; an empty chart says why instead of failing. */
function answer(
  q: { theme: Theme; raw: boolean },
  chart: MarketChart,
  rows: Row[],
  emptyReason: string,
): Figure | Row[] {
  if (q.raw) return rows;
  return rows.length === 0 ? emptyFigure(emptyReason, q.theme) : marketFigure(chart, q.theme);
}

const day = (t: string) => t.slice(0, 10);
/** A bar row as a candle (the rows raw=true answers carry the adjusted close too). */
const candleOf = ({ adj_close, ...candle }: Row & Candle): Candle => candle;

/** The stored bars of a technical window as candles (the same series the indicators were computed on). */
async function candlesOf(
  ctx: Context,
  ticker: string,
  window: { resolution: Resolution; fromDate?: string; toDate?: string; limit?: number },
): Promise<Candle[]> {
  const r = await getMulti({ ctx, input: { ticker, indicators: [], includeOhlcv: true, ...window } });
  return (r.ohlcv ?? []).map((b) => ({
    date: window.resolution === "1min" ? b.t : day(b.t),
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: b.volume,
  }));
}

/** For the generated nets: a technical widget's first view of a ticker stores its prices (an ingestion). */
const STORES_PRICES = { "x-writes": true };

const TechnicalWindow = { ...WindowQuery, limit: intParam(1, 100_000).optional() };

/** svc_eod, svc_intraday, svc_history, svc_technical, svc_technical_multi, svc_technical_chart, svc_dividends: Plotly figures. */
export function registerChartWidgets(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/dividends/{ticker}",
    queryPath: "/workspace/dividends",
    kind: "chart",
    description:
      "Feeds the svc_dividends chart widget (one of the service's own): the listing's dividends from /dividends/{ticker} as columns by ex-date, the prices being ingested on first view. Any key; `raw=true` returns the rows and `theme` picks dark or light.",
    summary: "svc_dividends: a listing's dividends by ex-date as columns (stored with its prices, as /dividends)",
    params: { ticker: TickerParam },
    query: {
      from: DateParam.optional(),
      to: DateParam.optional(),
      ...ListingChoiceQuery,
      ...ChartQuery,
    },
    errors: [404],
    extensions: STORES_PRICES,
    handle: async (c, q) => {
      const { theme, raw, ...query } = q;
      const found = await getCorporateActions({ ctx: c.get("deps"), input: query });
      const rows = found.dividends.map((d) => ({
        ex_date: d.date,
        amount: d.amount,
        currency: found.listing.currency,
      }));
      if (raw) return rows;
      if (rows.length === 0) return emptyFigure(`No dividends of ${found.listing.ticker} stored`, theme);
      return columnsFigure(
        {
          name: "Dividend per share",
          x: rows.map((r) => r.ex_date),
          y: rows.map((r) => r.amount),
          valueLabel: found.listing.currency,
        },
        theme,
      );
    },
  });

  routes.add({
    path: "/workspace/intraday/{ticker}",
    queryPath: "/workspace/intraday",
    kind: "chart",
    description:
      "Feeds the svc_intraday chart widget (one of the service's own): candlesticks with volume from /intraday/{ticker} (5m and the last session opened by default). Any key; `raw=true` returns the rows.",
    summary: "svc_intraday: intraday candlesticks with volume (stored once fetched, as /intraday)",
    params: { ticker: TickerParam },
    query: {
      interval: z.enum(INTRADAY_INTERVALS).default("5m"),
      from: DateParam.optional(),
      to: DateParam.optional(),
      ...ListingChoiceQuery,
      ...ChartQuery,
    },
    errors: [404],
    extensions: STORES_PRICES,
    handle: async (c, q) => {
      const { theme, raw, ...query } = q;
      const found = await getIntraday({ ctx: c.get("deps"), input: query });
      const rows = found.bars.map((b) => ({
        date: isoInstant(b.start),
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        volume: b.volume,
        source: b.source,
      }));
      const candles = rows.map(({ source: _, ...candle }) => candle);
      return answer(
        { theme, raw },
        { candles, priceLabel: found.listing.currency },
        rows,
        `No ${found.interval} bars of ${found.listing.ticker} from ${found.window.from} to ${found.window.to}`,
      );
    },
  });

  routes.add({
    path: "/workspace/eod/{ticker}",
    queryPath: "/workspace/eod",
    kind: "chart",
    description:
      "Feeds the svc_eod chart widget: daily candlesticks with volume from /eod/{ticker}, `period` defaulting to 1y and the listing ingested on first view. Any key; `raw=true` returns the rows (with `adj_close`).",
    summary: "svc_eod: daily candlesticks with volume (ingested on first request, as /eod)",
    params: { ticker: TickerParam },
    query: {
      period: PeriodParam.default("1y"),
      from: DateParam.optional(),
      to: DateParam.optional(),
      ...ListingChoiceQuery,
      ...ChartQuery,
    },
    errors: [404],
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const { theme, raw, ...eod } = q;
      const res = await getEod({ ctx: c.get("deps"), input: { ...eod, fmt: "json", order: "a" } });
      const body = JSON.parse(res.body) as EodAnswer;
      const rows = body.data.map((b) => ({
        date: b.Date,
        open: b.Open,
        high: b.High,
        low: b.Low,
        close: b.Close,
        adj_close: b["Adj Close"],
        volume: b.Volume,
      }));
      const candles = rows.map(candleOf);
      return answer({ theme, raw }, { candles, priceLabel: body.listing.currency }, rows, `No bars of ${body.ticker}`);
    },
  });

  routes.add({
    path: "/workspace/ticker/{symbol}/history",
    queryPath: "/workspace/ticker/history",
    kind: "chart",
    description:
      "Feeds the svc_history chart widget: candlesticks with volume of any delayed-provider symbol from /ticker/{symbol}/history (daily, weekly or monthly). Any key; `raw=true` returns the rows.",
    summary: "svc_history: candlesticks with volume of any delayed-provider symbol (daily, weekly or monthly)",
    params: { symbol: SymbolParam },
    query: {
      period: PeriodParam.default("1y"),
      from: DateParam.optional(),
      to: DateParam.optional(),
      interval: z.enum(["1d", "1wk", "1mo"]).default("1d"),
      ...ChartQuery,
    },
    errors: [404],
    handle: async (c, q) => {
      const { theme, raw, ...input } = q;
      const h = await getTickerHistory({ ctx: c.get("deps"), input });
      const rows = historyRows(h.bars);
      const candles = rows.map(candleOf);
      return answer({ theme, raw }, { candles, priceLabel: h.currency ?? undefined }, rows, `No bars of ${h.symbol}`);
    },
  });

  routes.add({
    path: "/workspace/technical/{ticker}",
    queryPath: "/workspace/technical",
    kind: "chart",
    description:
      "Feeds the svc_technical chart widget: one indicator from /technical/{ticker} drawn with the candles it was computed on (averages and bands over the price, oscillators in a pane below). Any key; a ticker without stored daily prices is ingested first, and 422 as on the source route.",
    summary:
      "svc_technical: one indicator with the candles it was computed on (averages over the price, oscillators below)",
    params: { ticker: TickerParam },
    query: { ...IndicatorQuery, ...ChartQuery },
    errors: [404, 422],
    extensions: STORES_PRICES,
    handle: async (c, q) => {
      const ctx = c.get("deps");
      const { theme, raw, ticker, ...rest } = q;
      const result = await withStoredPrices(ctx, { ticker, resolution: rest.resolution }, () =>
        getIndicator({ ctx, input: { ...rest, ticker, fromDate: rest.from_date, toDate: rest.to_date } }),
      );
      const candles = await candlesOf(ctx, ticker, seriesWindow(rest));
      const rows = (result.series[0]?.values ?? []).map((v, i) => {
        const row: Row = { t: v.t };
        for (const s of result.series) row[s.name] = s.values[i]?.v ?? null;
        return row;
      });
      return answer(
        { theme, raw },
        indicatorChart(candles, [result]),
        rows,
        `No ${result.indicator} values for ${ticker}`,
      );
    },
  });

  routes.add({
    path: "/workspace/technical/{ticker}/multi",
    queryPath: "/workspace/technical/multi",
    kind: "chart",
    description:
      "Feeds the svc_technical_multi chart widget: several indicators (default sma_20,ema_50,rsi_14) over the candles, from /technical/{ticker}/multi, which always includes the bars. Any key; a ticker without stored daily prices is ingested first.",
    summary: "svc_technical_multi: several indicators over the candles (sma_20,ema_50,rsi_14 by default)",
    params: { ticker: TickerParam },
    query: { indicators: IndicatorListParam("sma_20,ema_50,rsi_14"), ...TechnicalWindow, ...ChartQuery },
    // An unknown ticker: its prices could not be ingested.
    errors: [404],
    extensions: STORES_PRICES,
    handle: async (c, q) => {
      const ctx = c.get("deps");
      const { theme, raw, ticker, indicators, ...rest } = q;
      // The candles come with the indicators: the widget has no include_ohlcv, it always draws them.
      const r = await withStoredPrices(
        ctx,
        { ticker, resolution: rest.resolution },
        () => getMulti({ ctx, input: { ticker, indicators, includeOhlcv: true, ...seriesWindow(rest) } }),
        (m) => !hasPrices(m),
      );
      const candles = (r.ohlcv ?? []).map((b) => ({ ...b, date: rest.resolution === "1min" ? b.t : day(b.t) }));
      const rows = flatRows(
        candles.map((b, i) => {
          const row: Record<string, unknown> = {
            t: b.date,
            open: b.open,
            high: b.high,
            low: b.low,
            close: b.close,
            volume: b.volume,
          };
          for (const ind of r.indicators)
            for (const s of ind.series)
              row[ind.series.length > 1 ? `${resultKey(ind)}_${s.name}` : resultKey(ind)] = s.values[i]?.v ?? null;
          return row;
        }),
      );
      const why = r.errors.find((e) => e.indicator === "*")?.error ?? `No bars of ${ticker}`;
      return answer({ theme, raw }, indicatorChart(candles, r.indicators), rows, why);
    },
  });

  routes.add({
    path: "/workspace/technical/{ticker}/chart",
    queryPath: "/workspace/technical/chart",
    kind: "chart",
    description:
      "Feeds the svc_technical_chart chart widget: candles and indicator columns on the same dates (default sma_20,rsi_14, newest 200 bars) from /technical/{ticker}/chart. Any key; a ticker without stored daily prices is ingested first.",
    summary: "svc_technical_chart: candles and indicator columns on the same dates (sma_20,rsi_14 by default)",
    params: { ticker: TickerParam },
    query: {
      indicators: IndicatorListParam("sma_20,rsi_14"),
      ...WindowQuery,
      limit: intParam(1, 100_000).default(CHART_DEFAULT_LIMIT),
      ...ChartQuery,
    },
    // An unknown ticker: its prices could not be ingested.
    errors: [404],
    extensions: STORES_PRICES,
    handle: async (c, q) => {
      const ctx = c.get("deps");
      const { theme, raw, ticker, indicators, ...rest } = q;
      const r = await withStoredPrices(
        ctx,
        { ticker, resolution: rest.resolution },
        () => getChart({ ctx, input: { ticker, indicators, ...seriesWindow(rest) } }),
        (chart) => !hasPrices(chart),
      );
      const candles = r.timestamps.map((t, i) => ({
        date: t,
        open: r.ohlcv.open[i] ?? 0,
        high: r.ohlcv.high[i] ?? 0,
        low: r.ohlcv.low[i] ?? 0,
        close: r.ohlcv.close[i] ?? 0,
        volume: r.ohlcv.volume[i] ?? null,
      }));
      const rows = candles.map((b, i) => {
        const row: Row = { t: b.date, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume };
        for (const [name, col] of Object.entries(r.indicators)) row[name] = col[i] ?? null;
        return row;
      });
      const why = r.errors.find((e) => e.indicator === "*")?.error ?? `No bars of ${ticker}`;
      return answer({ theme, raw }, columnsChart(candles, r.indicators, indicators), rows, why);
    },
  });
}
