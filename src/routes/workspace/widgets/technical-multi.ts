import { indicatorChart, resultKey } from "../../../domain/workspace/indicator-figures";
import { flatRows } from "../../../domain/workspace/tables";
import { getMulti, hasPrices } from "../../../services/technical/get-multi";
import { withStoredPrices } from "../../../services/workspace/first-view";
import { TickerParam } from "../../params";
import { IndicatorListParam, intParam, seriesWindow, WindowQuery } from "../../technical/schema";
import { answer, day, STORES_PRICES } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery } from "../define";

const TechnicalWindow = { ...WindowQuery, limit: intParam(1, 100_000).optional() };

export function registerTechnicalMultiWidget(routes: WidgetRoutes) {
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
}
