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
