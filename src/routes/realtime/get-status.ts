import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { realtimeStatus } from "../../services/realtime/subscriptions";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { RealtimeStatusSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/realtime/status",
    tags: ["Realtime"],
    summary: "Streamed tickers, their WebSocket clients, and the stale ones",
    security: keyed,
    responses: {
      200: { description: "Realtime status", content: { "application/json": { schema: RealtimeStatusSchema } } },
    },
  }),
);

export function registerRealtimeStatus(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await realtimeStatus({ ctx: c.get("deps") }), 200));
}
