import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getIndexConstituents } from "../../services/indices/get-constituents";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { IndexConstituentsSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/index/{index_name}/constituents",
      "x-mcp-tool": "get_index_constituents",
      "x-access": "any",
      tags: ["Assets and listings"],
      description:
        "The stored composition of a stock index (CAC 40, DAX, AEX, FTSE MIB, Euro Stoxx 50, Nasdaq-100), found by its code or an alias with case, spaces and punctuation ignored (`cac40`, `CAC 40`, `^FCHI`). Each member gives its ISIN, name, listing on the index's exchange, sector, industry, country and weight (a ratio, null when the source gives none), heaviest first, with the composition's as-of date and source. Read from the database; an unknown index is a 404 listing the known ones. Any key.",
      summary: "The members of a stock index (CAC 40, DAX, AEX, FTSE MIB, Euro Stoxx 50, Nasdaq-100)",
      security: keyed,
      request: {
        params: z.object({
          index_name: textParam(40).openapi({
            example: "cac40",
            description: "The index's code or an alias, case and spaces ignored: cac40, CAC 40, ^FCHI",
          }),
        }),
      },
      responses: {
        200: {
          description: "The stored composition, heaviest members first, with its date and source",
          content: { "application/json": { schema: IndexConstituentsSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetIndexConstituents(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const answer = await getIndexConstituents({ ctx: c.get("deps"), input: { name: c.req.valid("param").index_name } });
    return c.json(answer, 200);
  });
}
