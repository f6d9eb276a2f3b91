import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { DELAYED } from "../../domain/provider-names";
import { getTickerHistory, type TickerHistory } from "../../services/history/get-ticker-history";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { DateParam, PeriodParam, SymbolParam } from "../params";
import { TickerHistorySchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/ticker/{symbol}/history",
      "x-access": "any",
      tags: ["Prices"],
      description:
        "Daily, weekly or monthly bars (`interval` 1d, 1wk, 1mo) of any delayed-provider symbol exactly as typed, catalogue or not (indices such as ^GSPC, currencies such as EURUSD=X, up to 20 characters), over a `period` (default 1y) or a `from`/`to` window. Nothing is stored: the provider is asked and the answer is cached 24 hours under the symbol's EOD cache keys. Prices are in the provider's quoting currency (GBp means pence), and the JSON field is `adj_close` where /eod's spec-fixed JSON says `Adj Close`. 404 when the provider does not know the symbol, 503 when it fails; any key.",
      summary: "Bars of a delayed-provider symbol as typed (the workspace history chart)",
      security: keyed,
      request: {
        params: z.object({ symbol: SymbolParam }),
        query: z.object({
          period: PeriodParam.default("1y"),
          from: DateParam.optional(),
          to: DateParam.optional(),
          interval: z.enum(["1d", "1wk", "1mo"]).default("1d"),
        }),
      },
      responses: {
        200: {
          description: "The bars, oldest first",
          content: { "application/json": { schema: TickerHistorySchema } },
        },
      },
    },
    [404],
  ),
);

/** The bars as the answer's rows (the workspace's history widget draws the same rows). */
export const historyRows = (bars: TickerHistory["bars"]) =>
  bars.map((b) => ({
    date: b.date,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    adj_close: b.adjClose,
    volume: b.volume,
  }));

export function registerGetTickerHistory(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const h = await getTickerHistory({
      ctx: c.get("deps"),
      input: { symbol: c.req.valid("param").symbol, ...c.req.valid("query") },
    });
    const data = historyRows(h.bars);
    return c.json(
      {
        symbol: h.symbol,
        currency: h.currency,
        exchange: h.exchange,
        interval: h.interval,
        from: h.from,
        to: h.to,
        source: DELAYED,
        count: data.length,
        data,
      },
      200,
    );
  });
}
