import { decimalOrNull } from "../../../domain/numbers";
import { screenByConditions } from "../../../services/technical/screen-conditions";
import { ConditionsQuery } from "../../technical/screen-conditions";
import type { WidgetRoutes } from "../define";

export function registerScreenerConditionsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/technical/screen/conditions",
    kind: "table",
    description:
      "Feeds the svc_screener_conditions table widget (one of the service's own): the matches of /technical/screen/conditions, with every value tested in one `tested` column; a single message row while a queued term is computed. Any key.",
    summary: "svc_screener_conditions: the catalogue instruments meeting every condition, with the values tested",
    params: {},
    query: ConditionsQuery,
    // A term no snapshot holds may start the day's queued run.
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const r = await screenByConditions({ ctx: c.get("deps"), input: q });
      // A term computed in the background has no rows yet: the table says so in its one row.
      if ("status" in r)
        return [
          {
            ticker: null,
            name: r.message,
            isin: null,
            as_of: null,
            close: null,
            currency: null,
            tested: null,
            figures_as_of: null,
            missing_session: null,
          },
        ];
      return r.matches.map((m) => ({
        ticker: m.ticker,
        name: m.name,
        isin: m.isin,
        as_of: m.as_of,
        close: decimalOrNull(m.close),
        currency: m.currency,
        // The values vary with the conditions: one column says them all.
        tested: Object.entries(m.values)
          .map(([k, v]) => `${k} ${v ?? "unknown"}`)
          .join(", "),
        figures_as_of: m.figures_as_of,
        missing_session: m.missing_session,
      }));
    },
  });
}
