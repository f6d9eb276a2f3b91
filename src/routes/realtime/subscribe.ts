import { type OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { realtimeStatus, subscribe, unsubscribe } from "../../services/realtime/subscriptions";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { RealtimeStatusSchema, SubscriptionSchema } from "./schema";

/** Tickers per subscribe request (spec Limits). */
const MAX_TICKERS = 50;

const post = createRoute(withErrors({
  method: "post",
  path: "/realtime/subscribe",
  tags: ["Realtime"],
  summary: "Starts streaming tickers (full-access key; catalogue tickers are stored and restored)",
  security: keyed,
  request: { body: { required: true, content: { "application/json": { schema: z.object({ tickers: z.array(TickerParam).min(1).max(MAX_TICKERS) }).openapi("SubscribeRequest") } } } },
  responses: {
    200: { description: "The subscriptions", content: { "application/json": { schema: z.array(SubscriptionSchema) } } },
  },
}));

const del = createRoute(withErrors({
  method: "delete",
  path: "/realtime/subscribe/{ticker}",
  tags: ["Realtime"],
  summary: "Stops streaming a ticker (full-access key)",
  security: keyed,
  request: { params: z.object({ ticker: TickerParam }) },
  responses: {
    200: { description: "Stopped", content: { "application/json": { schema: z.object({ status: z.literal("unsubscribed"), ticker: z.string() }) } } },
  },
}, [404]));

const status = createRoute(withErrors({
  method: "get",
  path: "/realtime/status",
  tags: ["Realtime"],
  summary: "Streamed tickers, their WebSocket clients, and the stale ones",
  security: keyed,
  responses: {
    200: { description: "Realtime status", content: { "application/json": { schema: RealtimeStatusSchema } } },
  },
}));

export function registerSubscriptions(api: OpenAPIHono<AppEnv>) {
  api.openapi(post, async (c) => c.json(await subscribe({ ctx: c.get("deps"), input: c.req.valid("json") }), 200));
  api.openapi(del, async (c) => c.json(await unsubscribe({ ctx: c.get("deps"), input: c.req.valid("param") }), 200));
  return api.openapi(status, async (c) => c.json(await realtimeStatus({ ctx: c.get("deps") }), 200));
}
