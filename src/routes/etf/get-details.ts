import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getEtfDetails } from "../../services/etf/get-etf-details";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { IsinParam } from "../params";
import { EtfDetailsSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/etf/{isin}/details",
      "x-mcp-tool": "get_etf_details",
      "x-access": "any",
      tags: ["Fundamentals"],
      description:
        "Fund data of a catalogue ETF: issuer, category, legal type, expense ratio and yield (ratios), total assets, inception date, top holdings, sector weights and asset classes, fetched from the delayed provider's fund modules under the verified symbol of the listing /eod would read, and stored with their fetch date. When the provider cannot be asked the stored data is answered with `meta.source: database` and a note; answers the provider gave are cached 24 hours. A 404 when the ISIN is not in the catalogue or is not an ETF, a 400 for a malformed ISIN; any key.",
      summary: "An ETF's issuer, costs, yield, holdings, sector weights and asset classes",
      security: keyed,
      "x-writes": true,
      request: { params: z.object({ isin: IsinParam.openapi({ example: "IE00B5BMR087" }) }) },
      responses: {
        200: {
          description: "The fund's data; meta.source says whether it was fetched now or read from the database",
          content: { "application/json": { schema: EtfDetailsSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetEtfDetails(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const answer = await getEtfDetails({ ctx: c.get("deps"), input: { isin: c.req.valid("param").isin } });
    return c.json(answer, 200);
  });
}
