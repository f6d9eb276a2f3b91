import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_GRID_STEPS } from "../../domain/dcf/sensitivity";
import { dcfSensitivity } from "../../services/dcf/sensitivity";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ENRICHED_FIRST, NEVER_ENRICHED, params } from "./route-parts";
import { SensitivitySchema } from "./schema";
import { SensitivityQuery, sensitivityInput } from "./sensitivity-query";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/dcf/{ticker}/sensitivity",
      "x-mcp-tool": "get_dcf_sensitivity",
      "x-access": "any",
      tags: ["Valuation"],
      summary: "Value per share over discount rates (rows) x terminal growth rates (columns)",
      description: `${NEVER_ENRICHED}. A cell whose growth reaches its rate is null. At most ${MAX_GRID_STEPS} rows and ${MAX_GRID_STEPS} columns.`,
      security: keyed,
      "x-writes": true,
      "x-precondition": ENRICHED_FIRST,
      request: {
        params,
        query: z.object(SensitivityQuery),
      },
      responses: {
        200: { description: "The grid", content: { "application/json": { schema: SensitivitySchema } } },
      },
    },
    [404],
  ),
);

export function registerGetDcfSensitivity(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const input = sensitivityInput(c.req.valid("param").ticker, c.req.valid("query"));
    return c.json(await dcfSensitivity({ ctx: c.get("deps"), input }), 200);
  });
}
