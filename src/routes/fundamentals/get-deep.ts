import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { DEEP_SECTIONS, type DeepSection, getDeepFundamentals } from "../../services/fundamentals/get-deep";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, csvList, IsinParam, TickerParam } from "../params";
import { DeepDocumentSchema } from "./schema";

export const SectionsParam = csvList(
  z
    .string()
    .max(100)
    .default("all")
    .transform((s, ctx) => {
      const parts = s
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean);
      if (parts.length === 0 || parts.includes("all")) return [...DEEP_SECTIONS];
      const unknown = parts.filter((p) => !(DEEP_SECTIONS as readonly string[]).includes(p));
      if (unknown.length) {
        ctx.addIssue({
          code: "custom",
          message: `unknown section ${unknown.join(", ")}; use all or ${DEEP_SECTIONS.join(", ")}`,
        });
        return z.NEVER;
      }
      return [...new Set(parts)] as DeepSection[];
    }),
).openapi({
  type: "string",
  example: "statements",
  description: `all, or a comma-separated list among ${DEEP_SECTIONS.join(", ")}`,
});

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/fundamental/deep",
      "x-mcp-tool": "get_fundamentals_deep",
      "x-access": "any",
      tags: ["Fundamentals"],
      description:
        "Highlights (snake_case, ratios as ratios), income, balance-sheet and cash-flow statements (annual and quarterly), earnings history and trend, and analyst ratings of an instrument named by `ticker` or `isin`, fetched from the delayed provider with the listing's verified symbol, passed through the validation layer and stored. Without a verified symbol, or when the provider fails, the stored figures are answered with `meta.source: database` and a `meta.note` saying why; `meta.rejected` lists values the validation layer refused. `sections` restricts the answer (all, or any of highlights, statements, earnings, ratings); documents the provider gave are cached 24 hours and `refresh=true` fetches again. Call it before the /dcf routes, which read only stored figures; any key, 404 when the instrument is not in the catalogue.",
      summary:
        "Stored highlights, statements, earnings and analyst ratings, fetched with the listing's verified symbol",
      security: keyed,
      "x-writes": true,
      "x-example-query": "ticker=MC.PA&sections=highlights",
      request: {
        query: z.object({
          ticker: TickerParam.optional().openapi({ description: "ticker or isin is required" }),
          isin: IsinParam.optional(),
          refresh: BoolParam.openapi({
            description: "Fetch again from the delayed provider instead of the cached answer",
          }),
          sections: SectionsParam,
        }),
      },
      responses: {
        200: {
          description:
            "The document; meta.source says whether it was fetched now or read from the database (then meta.note says why)",
          content: { "application/json": { schema: DeepDocumentSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetDeepFundamentals(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const doc = await getDeepFundamentals({ ctx: c.get("deps"), input: c.req.valid("query") });
    return c.json(doc, 200);
  });
}
