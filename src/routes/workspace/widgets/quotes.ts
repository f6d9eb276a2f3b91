import { decimalOrNull } from "../../../domain/numbers";
import { getQuotes } from "../../../services/realtime/get-quotes";
import { requestedTickers, TickersParam } from "../../realtime/list-quotes";
import { WidgetConvert, type WidgetRoutes } from "../define";

export function registerQuotesWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/quotes",
    kind: "table",
    description:
      "Feeds the svc_quotes_batch table widget: one row per ticker (the first 20) from /quotes with price, change, percent change, previous close and volume as numbers, and an `error` column for a ticker without a quote. Any key; never starts a stream. `convert` shows the prices in another currency at the ECB's reference rates, as convert= on the price routes (empty: the listing's own).",
    summary:
      "svc_quotes_batch: one row per ticker (the first 20): price, change, volume; an error for a ticker without a quote",
    params: {},
    query: { tickers: TickersParam, convert: WidgetConvert },
    handle: async (c, q) => {
      const r = await getQuotes({
        ctx: c.get("deps"),
        input: { tickers: requestedTickers(q.tickers), convert: q.convert },
      });
      return r.tickers.map((t) => {
        const quote = r.quotes[t];
        return {
          ticker: t,
          price: decimalOrNull(quote?.price),
          change: decimalOrNull(quote?.change),
          change_pct: decimalOrNull(quote?.change_pct),
          previous_close: decimalOrNull(quote?.previous_close),
          volume: quote?.volume ?? null,
          is_realtime: quote?.is_realtime ?? null,
          source: quote?.source ?? null,
          timestamp: quote?.timestamp ?? null,
          error: quote ? null : (r.errors[t] ?? "no quote"),
        };
      });
    },
  });
}
