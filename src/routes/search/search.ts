import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { search } from "../../services/search/search";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { intParam } from "../technical/schema";
import { SearchAnswerSchema, toSearchBody } from "./schema";

/** The catalogue changes with its daily refresh; the provider's part is cached a day. */
const MAX_AGE_S = 300;

const route = createRoute(
  withErrors({
    method: "get",
    path: "/search",
    "x-mcp-tool": "search_instruments",
    "x-access": "any",
    tags: ["Assets and listings"],
    description:
      "Finds catalogue instruments by a listing's ticker or provider symbol, by ISIN, by a name starting with `q`, or by a name within a few typos (`aple` finds Apple Inc.), ranked by how they matched, each with all its listings and its preferred one. While `limit` (1 to 50, default 10) leaves room, the delayed provider's search adds lines the catalogue lacks (`in_catalogue: false`); its hits are cached a day, and a provider failure only shows in `provider.status`, never failing the answer. Search adds nothing to the catalogue; answers carry `Cache-Control: private, max-age=300`. Any key.",
    summary: "Instruments and listings by ticker, ISIN or name, typos tolerated; then the provider's finds",
    security: keyed,
    request: {
      query: z.object({
        q: textParam(100).openapi({
          example: "aple",
          description: "A ticker, provider symbol, ISIN or name (1 to 100 characters)",
        }),
        limit: intParam(1, 50)
          .default(10)
          .openapi({ example: 10, description: "Results at most, catalogue and provider together (1 to 50)" }),
      }),
    },
    responses: {
      200: {
        description: `Ranked matches. Cache-Control private, max-age ${MAX_AGE_S} s`,
        content: { "application/json": { schema: SearchAnswerSchema } },
      },
    },
  }),
);

export function registerSearch(api: OpenAPIHono<AppEnv>) {
  api.openapi(route, async (c) => {
    const { q, limit } = c.req.valid("query");
    const answer = await search({ ctx: c.get("deps"), input: { q, limit } });
    c.header("Cache-Control", `private, max-age=${MAX_AGE_S}`);
    return c.json(toSearchBody(answer), 200);
  });
}
