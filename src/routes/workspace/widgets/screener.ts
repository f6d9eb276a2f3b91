import { screen } from "../../../services/technical/screen";
import { ScreenQuery } from "../../technical/screen";
import type { WidgetRoutes } from "../define";

export function registerScreenerWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/technical/screen",
    kind: "table",
    description:
      "Feeds the svc_screener table widget: the matches of /technical/screen (ticker, name, ISIN, indicator, value); while the day's queued run is computed, the answer is a single row carrying the message instead of a 202. Any key.",
    summary: "svc_screener: the catalogue instruments whose last indicator value meets the condition",
    params: {},
    query: ScreenQuery,
    // A length no snapshot holds may start the day's queued run.
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const r = await screen({ ctx: c.get("deps"), input: q });
      // A queued screen has no rows yet: the table says so in its one row.
      if ("status" in r)
        return [{ ticker: null, name: r.message, isin: null, indicator: r.run.indicator, value: null }];
      return r.matches.map((m) => ({
        ticker: m.ticker,
        name: m.name,
        isin: m.isin,
        indicator: r.indicator,
        value: Number(m.value),
      }));
    },
  });
}
