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
    "x-access": "full",
    tags: ["Realtime"],
    description:
      "Starts streaming 1-minute ticks for up to 50 tickers (body `{tickers: [...]}`). Each ticker's start waits up to PROVIDER_TIMEOUT_MS (8 s by default) for the stream provider to take or refuse the symbol and answers a Subscription with `stream_state` (`streaming`, `connecting`, `refused` with `refused_reason`, or `stopped`). Tickers of catalogue listings are stored as subscriptions and restored by the five-minute cron after a restart (a refused one is deactivated); other tickers stream until the next restart only. While streamed, each tick feeds /quote, the WebSocket and, for a catalogue listing, the stored 1-minute candles. Needs a full-access key; 503 when streaming is not configured.",
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
