import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { removeAsset } from "../../services/catalogue/additions/remove-instrument";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { EXAMPLE_ISIN } from "./additions-schema";

const RemovalSchema = z
  .object({
    isin: z.string(),
    removed_at: z.string(),
    deactivated_listings: z.array(z.string()),
    streams_ended: z.array(z.string()),
  })
  .openapi("Removal");

const route = createRoute(
  withErrors(
    {
      method: "delete",
      path: "/assets/{isin}",
      "x-access": "full",
      tags: ["Assets and listings"],
      description:
        "Takes an instrument out of the catalogue: its listings are deactivated, so they leave every route, the daily refresh, the screener and the streams (its stored realtime subscriptions end and their streams stop), and its cached EOD answers are dropped. Its stored prices stay, and a later POST /assets can bring it back. Repeating the call changes nothing and answers the first removal's date; an unknown ISIN is a 404 and a wrong check digit a 400. Needs a full-access key.",
      summary:
        "Takes an instrument out of the catalogue: its listings leave every route, the refresh, the screener and the streams; its stored prices stay (full-access key)",
      security: keyed,
      "x-touches": [EXAMPLE_ISIN],
      request: { params: z.object({ isin: textParam(64).openapi({ example: EXAMPLE_ISIN }) }) },
      responses: {
        200: {
          description: "Removed (or removed already)",
          content: { "application/json": { schema: RemovalSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerRemoveAsset(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await removeAsset(c.get("deps"), c.req.valid("param").isin), 200));
}
