import { macroTiles, quoteTiles } from "../../domain/workspace/tiles";
import { getMacroRates } from "../../services/macro/get-rates";
import { getQuote } from "../../services/realtime/get-quote";
import { SymbolParam } from "../params";
import type { WidgetRoutes } from "./define";

/** svc_quote and svc_macro_rates: metric tiles. */
export function registerMetricWidgets(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/quote/{ticker}",
    queryPath: "/workspace/quote",
    kind: "metric",
    description:
      "Feeds the svc_quote metric widget: the /quote/{ticker} price as tiles (price with its percent change, change, previous close, day high, day low, volume), never starting a stream. Any key; 404 for an unknown symbol.",
    summary: "svc_quote: price, change, previous close, day range and volume as tiles (never starts a stream)",
    params: { ticker: SymbolParam },
    query: {},
    errors: [404],
    handle: async (c, q) =>
      quoteTiles(
        await getQuote({
          ctx: c.get("deps"),
          // The widget reads what is streamed, else the delayed quote: it never starts a stream.
          input: { ticker: q.ticker, subscribeIfMissing: false, fullAccess: false, background: () => {} },
        }),
      ),
  });
  routes.add({
    path: "/workspace/macro/rates",
    kind: "metric",
    description:
      'Feeds the svc_macro_rates metric widget: the /macro/rates risk-free rate as a percent tile with its observation date (one "no value yet" tile when none was ever read). Any key.',
    summary: "svc_macro_rates: the risk-free rate (10-year Treasury) and its observation date as tiles",
    params: {},
    query: {},
    // Reading the rate may store the macro provider's value.
    extensions: { "x-writes": true },
    handle: async (c) => macroTiles((await getMacroRates({ ctx: c.get("deps") })).risk_free_rate),
  });
}
