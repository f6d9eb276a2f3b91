import { documentRows } from "../../../domain/workspace/tables";
import { getRenderedFundamentals } from "../../../services/fundamentals/get-rendered";
import { textParam } from "../../openapi";
import { BoolParam, CurrencyParam, ExchangeParam, IsinParam, TickerParam } from "../../params";
import type { WidgetRoutes } from "../define";

export function registerFundamentalsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/fundamental",
    kind: "table",
    description:
      "Feeds the svc_fundamentals table widget: the /fundamental document (EODHD layout; no `fmt`) flattened into rows of section, field, value and the figure's source. Any key.",
    summary: "svc_fundamentals: the fundamentals document as rows of section, field, value and source",
    params: {},
    query: {
      ticker: TickerParam.optional(),
      isin: IsinParam.optional(),
      exchange: ExchangeParam.optional(),
      currency: CurrencyParam.optional(),
      provider: textParam(200).optional(),
      nocache: BoolParam,
    },
    errors: [404],
    extensions: { "x-writes": true, "x-example-query": "ticker=MC.PA" },
    handle: async (c, q) => {
      const doc = (await getRenderedFundamentals({ ctx: c.get("deps"), input: { ...q, fmt: "eodhd" } })) as Record<
        string,
        unknown
      >;
      const { Sources, Providers, ...sections } = doc;
      const sources = (Sources ?? {}) as Record<string, Record<string, unknown>>;
      return documentRows(sections, ["General", "Highlights", "Valuation"]).map((r) => {
        const field = r.field.split(/[.[]/)[0] ?? r.field;
        const source = sources[r.section]?.[field];
        return { ...r, source: typeof source === "string" ? source : null };
      });
    },
  });
}
