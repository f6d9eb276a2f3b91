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
      "x-mcp-tool": "get_instrument_by_isin",
      "x-access": "any",
      // For the generated nets (test/hardening): this read may write (the discovery of an ISIN the catalogue lacks).
      "x-writes": true,
      tags: ["Assets and listings"],
      description:
        "An instrument with its preferred listing (the one /eod would read) and all its listings. An ISIN with a wrong shape or check digit is a 400, a departure from the spec's 404, since it names no instrument anywhere. When the catalogue lacks a well-formed ISIN and discovery is on (CATALOGUE_DISCOVERY, on by default), the service first tries to add it from the providers, within the per-key and service-wide discovery budgets (429 past them); otherwise, or when that fails, the answer is a 404 whose `reason` says why, as it is for a removed instrument. Any key.",
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
