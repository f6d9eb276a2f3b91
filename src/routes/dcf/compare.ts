import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { compareDcf } from "../../services/dcf/get-dcf";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ENRICHED_FIRST, forceRefresh, NEVER_ENRICHED, params, result } from "./route-parts";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/dcf/{ticker}/compare",
      "x-mcp-tool": "compare_dcf_models",
      "x-access": "any",
      tags: ["Valuation"],
      summary: "The three models side by side with the weighted consensus and the analysts' target (cached 6 hours)",
      description: `${NEVER_ENRICHED}. A company without a dividend has its ddm at 0 with a warning, outside the consensus.`,
      security: keyed,
      "x-writes": true,
      "x-precondition": ENRICHED_FIRST,
      request: { params, query: z.object({ force_refresh: forceRefresh }) },
      responses: result("The three models and the consensus of those that have a value"),
    },
    [404],
  ),
);

export function registerCompareDcf(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const input = { ticker: c.req.valid("param").ticker, forceRefresh: c.req.valid("query").force_refresh };
    return c.json(await compareDcf({ ctx: c.get("deps"), input }), 200);
  });
}
