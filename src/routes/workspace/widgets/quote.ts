import { quoteTiles } from "../../../domain/workspace/tiles";
import { getQuote } from "../../../services/realtime/get-quote";
import { SymbolParam } from "../../params";
import { WidgetConvert, type WidgetRoutes } from "../define";

export function registerQuoteWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/quote/{ticker}",
    queryPath: "/workspace/quote",
    kind: "metric",
    description:
      "Feeds the svc_quote metric widget: the /quote/{ticker} price as tiles (price with its percent change, change, previous close, day high, day low, volume), never starting a stream. Any key; 404 for an unknown symbol. `convert` shows the prices in another currency at the ECB's reference rates, as convert= on the price routes (empty: the listing's own).",
    summary: "svc_quote: price, change, previous close, day range and volume as tiles (never starts a stream)",
    params: { ticker: SymbolParam },
    query: { convert: WidgetConvert },
    errors: [404],
    handle: async (c, q) =>
      quoteTiles(
        await getQuote({
          ctx: c.get("deps"),
          // The widget reads what is streamed, else the delayed quote: it never starts a stream.
          input: {
            ticker: q.ticker,
            subscribeIfMissing: false,
            fullAccess: false,
            background: () => {},
            convert: q.convert,
          },
        }),
      ),
  });
}
