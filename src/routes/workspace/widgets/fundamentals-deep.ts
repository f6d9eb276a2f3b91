import { documentRows } from "../../../domain/workspace/tables";
import { getDeepFundamentals } from "../../../services/fundamentals/get-deep";
import { SectionsParam } from "../../fundamentals/get-deep";
import { BoolParam, IsinParam, TickerParam } from "../../params";
import type { WidgetRoutes } from "../define";

export function registerFundamentalsDeepWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/fundamental/deep",
    kind: "table",
    description:
      "Feeds the svc_fundamentals_deep table widget: the /fundamental/deep document (highlights, statements, earnings, ratings) flattened into section, field and value rows, without its meta block. Any key.",
    summary: "svc_fundamentals_deep: the deep document (highlights, statements, earnings, ratings) as rows",
    params: {},
    query: { ticker: TickerParam.optional(), isin: IsinParam.optional(), refresh: BoolParam, sections: SectionsParam },
    errors: [404],
    extensions: { "x-example-query": "ticker=MC.PA&sections=highlights", "x-writes": true },
    handle: async (c, q) => {
      const { meta, ...doc } = (await getDeepFundamentals({ ctx: c.get("deps"), input: q })) as unknown as Record<
        string,
        unknown
      >;
      return documentRows(doc, ["asset_profile", "highlights"]);
    },
  });
}
