import type { Resolution } from "../../../domain/indicators/request";
import type { Candle } from "../../../domain/workspace/figures";
import { indicatorChart } from "../../../domain/workspace/indicator-figures";
import type { Row } from "../../../domain/workspace/tables";
import type { Context } from "../../../platform/context";
import { getIndicator } from "../../../services/technical/get-indicator";
import { getMulti } from "../../../services/technical/get-multi";
import { withStoredPrices } from "../../../services/workspace/first-view";
import { TickerParam } from "../../params";
import { IndicatorQuery } from "../../technical/get";
import { seriesWindow } from "../../technical/schema";
import { answer, day, STORES_PRICES } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery } from "../define";

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

export function registerTechnicalWidget(routes: WidgetRoutes) {
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
}
