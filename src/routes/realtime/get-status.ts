import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { realtimeStatus } from "../../services/realtime/subscriptions";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { RealtimeStatusSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/realtime/status",
    "x-access": "any",
    tags: ["Realtime"],
    description:
      "The state of realtime streaming: streamed tickers, WebSocket clients per ticker and in all, stale tickers (streamed but without a tick in the last 60 s, with the provider connection down, or whose stream object did not answer), and `worker_running` (the registry and every stream object answered). It also gives the restore cron's last run, the symbols the stream provider refused in the last day, and for each stored subscription the candles received outside the venue's session (counted, never stored). Any key.",
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
