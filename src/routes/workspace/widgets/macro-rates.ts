import { macroTiles } from "../../../domain/workspace/tiles";
import { getMacroRates } from "../../../services/macro/get-rates";
import type { WidgetRoutes } from "../define";

export function registerMacroRatesWidget(routes: WidgetRoutes) {
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
