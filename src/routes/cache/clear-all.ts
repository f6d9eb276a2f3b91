import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { clearEodCache } from "../../services/cache/clear";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CacheClearSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/cache/clear",
    tags: ["Cache administration"],
    summary: "Deletes every cached EOD answer (keys eod:*; full-access key)",
    security: keyed,
    responses: {
      200: { description: "What was deleted", content: { "application/json": { schema: CacheClearSchema } } },
    },
  }),
);

export function registerClearAllCache(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const r = await clearEodCache({ ctx: c.get("deps"), input: {} });
    return c.json({ status: "cleared" as const, ...r }, 200);
  });
}
