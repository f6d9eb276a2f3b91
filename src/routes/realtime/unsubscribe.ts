import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { unsubscribe } from "../../services/realtime/subscriptions";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { UnsubscribedSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "delete",
      path: "/realtime/subscribe/{ticker}",
      "x-access": "full",
      tags: ["Realtime"],
      description:
        'Stops streaming a ticker: the provider connection closes, its WebSocket clients are closed normally (code 1000, `stream stopped`) and its stored subscription is deactivated so the cron does not restore it. Answers `{status: "unsubscribed", ticker}`; a 404 if that ticker is not being streamed. Needs a full-access key.',
      summary: "Stops streaming a ticker (full-access key)",
      security: keyed,
      request: { params: z.object({ ticker: TickerParam }) },
      responses: {
        200: {
          description: "Stopped",
          content: {
            "application/json": { schema: UnsubscribedSchema },
          },
        },
      },
    },
    [404],
  ),
);

export function registerUnsubscribe(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(await unsubscribe({ ctx: c.get("deps"), input: c.req.valid("param") }), 200),
  );
}
