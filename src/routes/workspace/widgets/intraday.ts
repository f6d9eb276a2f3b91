import { z } from "@hono/zod-openapi";
import { isoInstant } from "../../../domain/instants";
import { INTRADAY_INTERVALS } from "../../../domain/intraday";
import { getIntraday } from "../../../services/intraday/get-intraday";
import { DateParam, ListingChoiceQuery, TickerParam } from "../../params";
import { answer, STORES_PRICES } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery, WidgetConvert } from "../define";

export function registerIntradayWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/intraday/{ticker}",
    queryPath: "/workspace/intraday",
    kind: "chart",
    description:
      "Feeds the svc_intraday chart widget (one of the service's own): candlesticks with volume from /intraday/{ticker} (5m and the last session opened by default). Any key; `raw=true` returns the rows. `convert` shows the prices in another currency at the ECB's reference rates, as convert= on the price routes (empty: the listing's own).",
    summary: "svc_intraday: intraday candlesticks with volume (stored once fetched, as /intraday)",
    params: { ticker: TickerParam },
    query: {
      interval: z.enum(INTRADAY_INTERVALS).default("5m"),
      from: DateParam.optional(),
      to: DateParam.optional(),
      convert: WidgetConvert,
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
        { candles, priceLabel: found.fx?.conversion.to ?? found.listing.currency },
        rows,
        `No ${found.interval} bars of ${found.listing.ticker} from ${found.window.from} to ${found.window.to}`,
      );
    },
  });
}
