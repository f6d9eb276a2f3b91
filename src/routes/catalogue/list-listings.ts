import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listListings } from "../../services/catalogue/list-listings";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { ListingsAnswerSchema, toListing } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/listings",
    "x-mcp-tool": "list_listings",
    "x-access": "any",
    "x-example-query": "exchange=PAR",
    tags: ["Assets and listings"],
    description:
      "Active listings of the catalogue matching `ticker`, `isin`, `exchange` (the catalogue's code, e.g. PAR) and/or `currency`; at least one filter is required (400 otherwise), and an ISIN with a wrong check digit is a 400. Listings come in the order /eod uses to choose among them: primary first, then by currency, then by exchange. Read from the database only (nothing is discovered). Any key.",
    summary: "Active listings matching the filters (at least one is required)",
    security: keyed,
    request: {
      query: z.object({
        ticker: textParam(32).optional().openapi({ example: "MC.PA" }),
        isin: textParam(32).optional().openapi({ example: "FR0000121014" }),
        exchange: textParam(32)
          .optional()
          .openapi({ description: "Exchange code as stored in the catalogue", example: "PAR" }),
        currency: textParam(8).optional().openapi({ example: "EUR" }),
      }),
    },
    responses: {
      200: { description: "Matching listings", content: { "application/json": { schema: ListingsAnswerSchema } } },
    },
  }),
);

export function registerListListings(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const rows = await listListings({ ctx: c.get("deps"), input: c.req.valid("query") });
    return c.json({ count: rows.length, listings: rows.map(toListing) }, 200);
  });
}
