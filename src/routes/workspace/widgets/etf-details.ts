import { flatRow } from "../../../domain/workspace/tables";
import { getEtfDetails } from "../../../services/etf/get-etf-details";
import { IsinParam } from "../../params";
import type { WidgetRoutes } from "../define";

export function registerEtfDetailsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/etf/{isin}/details",
    queryPath: "/workspace/etf/details",
    kind: "table",
    description:
      "Feeds the svc_etf_details table widget: one row per top holding of the ETF from /etf/{isin}/details, with the fund's expense ratio, yield, total assets and currency repeated on each row. Any key.",
    summary: "svc_etf_details: the fund's top holdings with its figures on each row",
    params: { isin: IsinParam.openapi({ example: "IE00B4L5Y983" }) },
    query: {},
    errors: [404],
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const d = await getEtfDetails({ ctx: c.get("deps"), input: { isin: q.isin } });
      const fund = flatRow({
        fund: d.name,
        isin: d.isin,
        expense_ratio: d.expense_ratio,
        yield: d.yield,
        total_assets: d.total_assets,
        currency: d.currency,
      });
      return d.top_holdings.map((h, i) => ({
        rank: i + 1,
        symbol: h.symbol,
        holding: h.name,
        weight: h.weight,
        ...fund,
      }));
    },
  });
}
