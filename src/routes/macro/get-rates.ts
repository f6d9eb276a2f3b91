import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getMacroRates } from "../../services/macro/get-rates";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { MacroRatesSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/macro/rates",
    tags: ["Valuation"],
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
