import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getLegacyFinancials } from "../../services/fundamentals/legacy-financials";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { SymbolParam } from "../params";
import { LegacyFinancialsSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/stocks/{ticker}/financials",
      "x-access": "any",
      tags: ["Legacy"],
      description:
        "Legacy route: the delayed provider's income statement, balance sheet and cash flow, annual and quarterly (about seven years), for the symbol exactly as typed rather than the catalogue's verified symbol. Rows come newest first with `period_end` and the provider's line items in snake_case; nothing is stored and the answer is cached one hour. A 404 when the provider has no statements for the symbol; any key. GET /fundamental and /fundamental/deep are preferred.",
      summary: "The delayed provider's statements for the symbol as typed (legacy; GET /fundamental is preferred)",
      security: keyed,
      request: { params: z.object({ ticker: SymbolParam.openapi({ example: "AAPL" }) }) },
      responses: {
        200: {
          description: "Income, balance sheet and cash flow, annual and quarterly",
          content: { "application/json": { schema: LegacyFinancialsSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerLegacyFinancials(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = await getLegacyFinancials({ ctx: c.get("deps"), input: { symbol: c.req.valid("param").ticker } });
    return c.json(body, 200);
  });
}
