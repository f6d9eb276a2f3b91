import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { Dec } from "../../domain/dcf/numbers";
import { postDcf } from "../../services/dcf/get-dcf";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ENRICHED_FIRST, NEVER_ENRICHED, params, result } from "./route-parts";
import { DcfRequestSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "post",
      path: "/dcf/{ticker}",
      "x-mcp-tool": "run_dcf_valuation",
      "x-access": "any",
      tags: ["Valuation"],
      summary: "DCF valuation with the caller's assumptions (never cached; read-only keys allowed)",
      description: `${NEVER_ENRICHED}; 404 also when ddm is asked of a company that pays no dividend`,
      security: keyed,
      "x-precondition": ENRICHED_FIRST,
      request: {
        params,
        body: { required: true, content: { "application/json": { schema: DcfRequestSchema } } },
      },
      responses: result("The valuation of each model asked, and their weighted consensus"),
    },
    [404],
  ),
);

export function registerPostDcf(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const b = c.req.valid("json");
    const d = (x: number | undefined) => (x === undefined ? undefined : new Dec(String(x)));
    const w = b.wacc_params ?? {};
    const answer = await postDcf({
      ctx: c.get("deps"),
      input: {
        ticker: c.req.valid("param").ticker,
        models: b.models,
        projectionYears: b.projection_years,
        terminalGrowth: d(b.terminal_growth_rate),
        riskFreeRate: d(w.risk_free_rate),
        equityRiskPremium: d(w.equity_risk_premium),
        beta: d(w.beta_override),
        costOfDebt: d(w.cost_of_debt_override),
        taxRate: d(w.tax_rate_override),
        fcfGrowth: d(b.fcf_growth_override),
        epsGrowth: d(b.eps_growth_override),
        dividendGrowth: d(b.dividend_growth_override),
        weights: b.model_weights,
      },
    });
    return c.json(answer, 200);
  });
}
