import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { clearEodCache } from "../../services/cache/clear";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { CacheClearSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/cache/clear/{ticker}",
    "x-access": "full",
    tags: ["Cache administration"],
    description:
      "Removes one ticker's cached EOD answers (keys `eod:{TICKER}:*`) and answers the pattern and the number deleted. The `period` query parameter is accepted but, as the spec says, deletes nothing: with it the call deletes nothing at all and says so in `note`. Edge-cached copies may outlive the clear by up to EDGE_CACHE_SECONDS (60 by default). Needs a full-access key.",
    summary: "Deletes the cached EOD answers of a ticker (keys eod:{TICKER}:*; full-access key)",
    security: keyed,
    request: {
      params: z.object({ ticker: TickerParam }),
      query: z.object({
        period: textParam(16).optional().openapi({ description: "Accepted, but currently deletes nothing" }),
      }),
    },
    responses: {
      200: { description: "What was deleted", content: { "application/json": { schema: CacheClearSchema } } },
    },
  }),
);

export function registerClearTickerCache(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const r = await clearEodCache({
      ctx: c.get("deps"),
      input: { ticker: c.req.valid("param").ticker, period: c.req.valid("query").period },
    });
    return c.json({ status: "cleared" as const, ...r }, 200);
  });
}
