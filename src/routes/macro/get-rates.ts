import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getMacroRates } from "../../services/macro/get-rates";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { MacroRatesSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/macro/rates",
    "x-mcp-tool": "get_risk_free_rate",
    "x-access": "any",
    tags: ["Valuation"],
    description:
      "The risk-free rate the valuation uses: the US 10-year Treasury yield (macro provider series DGS10) with its observation date. It is read from the cache (6 hours), else from a stored value read less than 6 hours ago, else from the macro provider (needs MACRO_API_KEY; the value is stored), else from an older stored value marked `meta.stale` with a note; `risk_free_rate` is null if no value has ever been read, and the valuation then falls back to DCF_RISK_FREE_RATE. `value` is a ratio written as a decimal string (0.0412 = 4.12 %) although `unit` says percent, a shape the spec fixes. The value is also refreshed daily at 06:15 UTC; any key.",
    summary: "The risk-free rate: the US 10-year Treasury yield (macro provider series DGS10)",
    security: keyed,
    // Reading the provider stores its value (macro_rates_cache).
    "x-writes": true,
    responses: {
      200: {
        description: "The newest value: cached (6 h), stored, read from the macro provider, or an older stored one",
        content: { "application/json": { schema: MacroRatesSchema } },
      },
    },
  }),
);

export function registerGetMacroRates(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await getMacroRates({ ctx: c.get("deps") }), 200));
}
