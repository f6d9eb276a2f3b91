import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
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
      "The risk-free rate of a currency, as the valuation uses it: by default (and for `currency=USD`) the US 10-year Treasury yield (macro provider series DGS10, daily); for another currency its 10-year government bond yield as the OECD publishes it through the macro provider (IRLTLT01<country>M156N, monthly, dated the first of the month: EUR takes Germany's; GBP, JPY, CHF, CAD, AUD, NZD, SEK, DKK, NOK, CZK, HUF, PLN, ILS, KRW, MXN, ZAR their own), with its `currency`, `frequency` and observation date; a currency without one is a 400. It is read from the cache (6 hours), else from a stored value read less than 6 hours ago, else from the macro provider (needs MACRO_API_KEY; the value is stored), else from an older stored value marked `meta.stale` with a note; `risk_free_rate` is null if no value has ever been read, and the valuation then falls back to DCF_RISK_FREE_RATE. `value` is a ratio written as a decimal string (0.0412 = 4.12 %) although `unit` says percent, a shape the spec fixes. The value is also refreshed daily at 06:15 UTC; any key.",
    summary: "The risk-free rate of a currency: its 10-year government bond yield (US Treasury DGS10 by default)",
    security: keyed,
    // Reading the provider stores its value (macro_rates_cache).
    "x-writes": true,
    request: {
      query: z.object({
        currency: z
          .string()
          .regex(/^[A-Za-z]{3}$/, "currency is a three-letter ISO 4217 code")
          .optional()
          .openapi({ example: "EUR", description: "The currency whose rate to give (default USD)" }),
      }),
    },
    responses: {
      200: {
        description: "The newest value: cached (6 h), stored, read from the macro provider, or an older stored one",
        content: { "application/json": { schema: MacroRatesSchema } },
      },
    },
  }),
);

export function registerGetMacroRates(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(await getMacroRates({ ctx: c.get("deps"), currency: c.req.valid("query").currency }), 200),
  );
}
