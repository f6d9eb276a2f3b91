import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getDcf } from "../../services/dcf/get-dcf";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ENRICHED_FIRST, forceRefresh, NEVER_ENRICHED, params, result } from "./route-parts";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/dcf/{ticker}",
      "x-mcp-tool": "get_dcf_valuation",
      "x-access": "any",
      tags: ["Valuation"],
      summary: "DCF valuation: the fcf model with the default assumptions (cached 6 hours)",
      description: NEVER_ENRICHED,
      security: keyed,
      // Reading the risk-free rate may store the macro provider's value.
      "x-writes": true,
      "x-precondition": ENRICHED_FIRST,
      request: { params, query: z.object({ force_refresh: forceRefresh }) },
      responses: result("The valuation; consensus_value equals the fcf value"),
    },
    [404],
  ),
);

export function registerGetDcf(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const input = { ticker: c.req.valid("param").ticker, forceRefresh: c.req.valid("query").force_refresh };
    return c.json(await getDcf({ ctx: c.get("deps"), input }), 200);
  });
}
