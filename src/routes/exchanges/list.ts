import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { listExchanges } from "../../services/exchanges/exchanges";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ExchangesSchema, LIFETIME } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/exchanges",
    "x-mcp-tool": "list_exchanges",
    "x-access": "any",
    tags: ["Assets and listings"],
    description:
      "Every venue of the catalogue with its MIC, time zone, regular hours (local time), whether a session is in progress at the service's clock, today's session or why there is none, and its next open and close (UTC), plus the published calendar its holidays come from and `calendar_through`, the last day whose holidays are known (after it only weekends count as closed). Computed from built-in calendars, without the database. `Cache-Control: private` with a max-age up to the next open or close of a listed venue, at most 5 minutes. Any key.",
    summary: "Every venue of the catalogue: time zone, trading hours, open now, next open and close",
    security: keyed,
    responses: {
      200: {
        description: `The venues by code, from their published calendars. ${LIFETIME}`,
        content: { "application/json": { schema: ExchangesSchema } },
      },
    },
  }),
);

export function registerListExchanges(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, (c) => {
    const { body, maxAgeSeconds } = listExchanges({ ctx: c.get("deps") });
    c.header("Cache-Control", `private, max-age=${maxAgeSeconds}`);
    return c.json(body, 200);
  });
}
