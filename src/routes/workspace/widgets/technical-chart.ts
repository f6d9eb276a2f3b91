import { columnsChart } from "../../../domain/workspace/indicator-figures";
import type { Row } from "../../../domain/workspace/tables";
import { CHART_DEFAULT_LIMIT, getChart } from "../../../services/technical/get-chart";
import { hasPrices } from "../../../services/technical/get-multi";
import { withStoredPrices } from "../../../services/workspace/first-view";
import { TickerParam } from "../../params";
import { IndicatorListParam, intParam, seriesWindow, WindowQuery } from "../../technical/schema";
import { answer, STORES_PRICES } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery } from "../define";

export function registerTechnicalChartWidget(routes: WidgetRoutes) {
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
