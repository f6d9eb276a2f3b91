import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { clearEodCache } from "../../services/cache/clear";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CacheClearSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/cache/clear",
    "x-access": "full",
    tags: ["Cache administration"],
    description:
      "Deletes every cached EOD answer (keys `eod:*`, which include /ticker/{symbol}/history answers) and answers the pattern and the number of keys deleted. Other categories (fundamentals, indicators, news, valuations and the rest) are not touched and expire on their own, and a copy already kept by Cloudflare's edge cache at some location may still be served for up to EDGE_CACHE_SECONDS (60 by default). Needs a full-access key.",
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
