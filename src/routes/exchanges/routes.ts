import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getExchange, listExchanges } from "../../services/exchanges/exchanges";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { ExchangeSchema, ExchangesSchema } from "./schema";

const LIFETIME =
  "Cache-Control private, max-age: until the next open or close of a venue in the answer, at most 5 minutes (is_open changes then)";

const listRoute = createRoute(
  withErrors({
    method: "get",
    path: "/exchanges",
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

const getRoute = createRoute(
  withErrors(
    {
      method: "get",
      path: "/exchanges/{code}",
      tags: ["Assets and listings"],
      description:
        "One venue (code case-insensitive, e.g. XETRA) with the fields of /exchanges plus this year's and next year's holidays and early closes; a year whose calendar the service does not hold is named in `calendar_note`. An unknown code is a 404 listing the known codes. Same Cache-Control rule as /exchanges; any key.",
      summary: "One venue with this year's and next year's holidays and early closes",
      security: keyed,
      request: {
        params: z.object({
          code: textParam(20).openapi({ example: "XETRA", description: "The catalogue's exchange code, case ignored" }),
        }),
      },
      responses: {
        200: {
          description: `The venue's hours, state now and calendar, with the calendar's source and date. ${LIFETIME}`,
          content: { "application/json": { schema: ExchangeSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerExchanges(api: OpenAPIHono<AppEnv>) {
  api.openapi(listRoute, (c) => {
    const { body, maxAgeSeconds } = listExchanges({ ctx: c.get("deps") });
    c.header("Cache-Control", `private, max-age=${maxAgeSeconds}`);
    return c.json(body, 200);
  });
  api.openapi(getRoute, (c) => {
    const { body, maxAgeSeconds } = getExchange({ ctx: c.get("deps"), input: { code: c.req.valid("param").code } });
    c.header("Cache-Control", `private, max-age=${maxAgeSeconds}`);
    return c.json(body, 200);
  });
}
