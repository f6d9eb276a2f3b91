import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getFxLatest } from "../../services/fx/get-latest";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CurrencyParam, FxLatestSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/fx/latest",
      "x-mcp-tool": "get_fx_latest",
      "x-access": "any",
      tags: ["FX"],
      summary: "Every currency against a base at the newest ECB publication",
      description:
        "The newest euro reference rates stored (fetched first when the newest publication out is not stored yet), as units of each currency for one `base` (default EUR; another base is crossed through the euro). `date` is the publication's day; a note says when a newer one is due but not stored. The currencies listed (and the Bulgarian lev, whose rates end in 2025 when it joined the euro) are the ones every FX route and `convert=` accept. Errors: 400 for a currency without rates; 503 when nothing is stored and the ECB failed. Any key.",
      security: keyed,
      "x-writes": true,
      request: { query: z.object({ base: CurrencyParam.optional().openapi({ example: "EUR" }) }) },
      responses: {
        200: { description: "The rates", content: { "application/json": { schema: FxLatestSchema } } },
      },
    },
    [404],
  ),
);

export function registerGetFxLatest(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await getFxLatest(c.get("deps"), c.req.valid("query").base), 200));
}
