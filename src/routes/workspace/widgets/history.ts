import { z } from "@hono/zod-openapi";
import { getTickerHistory } from "../../../services/history/get-ticker-history";
import { historyRows } from "../../history/get-ticker-history";
import { DateParam, PeriodParam, SymbolParam } from "../../params";
import { answer, candleOf } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery } from "../define";

export function registerHistoryWidget(routes: WidgetRoutes) {
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
}
