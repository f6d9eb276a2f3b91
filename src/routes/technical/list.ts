import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { INDICATORS, minBars, withDefaults } from "../../domain/indicators/catalogue";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { IndicatorCatalogueSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/list",
    "x-mcp-tool": "list_indicators",
    "x-access": "any",
    tags: ["Technical indicators"],
    description:
      "The 18 technical indicators the service computes (trend, momentum, volatility and volume), each with its parameters (default, bounds, integer or not), its output series, the number of bars one value needs with the default parameters, and whether it works on intraday bars only (vwap). A static answer; any key.",
    summary: "The indicators with their parameters, outputs and minimum number of bars",
    security: keyed,
    responses: {
      200: { description: "The catalogue", content: { "application/json": { schema: IndicatorCatalogueSchema } } },
    },
  }),
);

export function registerListIndicators(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, (c) => {
    const indicators = INDICATORS.map((i) => ({
      name: i.name,
      label: i.label,
      category: i.category,
      params: i.params.map((p) => ({ ...p })),
      outputs: i.outputs.map((o) => ({ ...o })),
      min_bars: minBars(i, withDefaults(i, {})),
      intraday_only: i.intradayOnly,
    }));
    return c.json({ count: indicators.length, indicators }, 200);
  });
}
