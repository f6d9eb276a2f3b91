import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { subscribe } from "../../services/realtime/subscriptions";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { SubscriptionSchema } from "./schema";

/** Tickers per subscribe request (spec Limits). */
const MAX_TICKERS = 50;

const route = createRoute(
  withErrors({
    method: "post",
    path: "/realtime/subscribe",
    tags: ["Realtime"],
    summary: "Starts streaming tickers (full-access key; catalogue tickers are stored and restored)",
    security: keyed,
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: z
              .object({ tickers: z.array(TickerParam).min(1).max(MAX_TICKERS) })
              .openapi("SubscribeRequest", { example: { tickers: ["MC.PA"] } }),
          },
        },
      },
    },
    responses: {
      200: {
        description: "The subscriptions",
        content: { "application/json": { schema: z.array(SubscriptionSchema) } },
      },
    },
  }),
);

export function registerSubscribe(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(await subscribe({ ctx: c.get("deps"), input: c.req.valid("json") }), 200),
  );
}
