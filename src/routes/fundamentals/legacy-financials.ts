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
      tags: ["Legacy"],
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
