import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getAssetByIsin } from "../../services/catalogue/get-asset-by-isin";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { AssetSchema, toAsset } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/assets/by-isin/{isin}",
      tags: ["Assets and listings"],
      summary: "An instrument with its preferred listing and all its listings",
      security: keyed,
      request: {
        params: z.object({
          isin: textParam(64).openapi({
            description: "12 characters: two letters, then ten letters or digits",
            example: "US0378331005",
          }),
        }),
      },
      responses: {
        200: { description: "The instrument", content: { "application/json": { schema: AssetSchema } } },
      },
    },
    [404],
  ),
);

export function registerGetAssetByIsin(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const found = await getAssetByIsin({ ctx: c.get("deps"), input: c.req.valid("param") });
    return c.json(toAsset(found), 200);
  });
}
