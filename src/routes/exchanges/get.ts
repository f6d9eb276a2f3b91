import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getExchange } from "../../services/exchanges/exchanges";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { ExchangeSchema, LIFETIME } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/exchanges/{code}",
      "x-mcp-tool": "get_exchange_calendar",
      "x-access": "any",
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

export function registerGetExchange(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, (c) => {
    const { body, maxAgeSeconds } = getExchange({ ctx: c.get("deps"), input: { code: c.req.valid("param").code } });
    c.header("Cache-Control", `private, max-age=${maxAgeSeconds}`);
    return c.json(body, 200);
  });
}
