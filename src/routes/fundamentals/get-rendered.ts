import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { FUNDAMENTAL_PROVIDERS } from "../../domain/provider-names";
import { getRenderedFundamentals } from "../../services/fundamentals/get-rendered";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { BoolParam, CurrencyParam, ExchangeParam, IsinParam, TickerParam } from "../params";
import { type FundamentalsAnswer, FundamentalsAnswerSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/fundamental",
      tags: ["Fundamentals"],
      summary: "The fundamentals document (EODHD layout) with the source of every figure",
      security: keyed,
      "x-writes": true,
      "x-example-query": "ticker=AAPL",
      request: {
        query: z.object({
          ticker: TickerParam.optional().openapi({ description: "ticker or isin is required" }),
          isin: IsinParam.optional(),
          exchange: ExchangeParam.optional().openapi({ description: "Chooses a listing, as on /eod" }),
          currency: CurrencyParam.optional().openapi({ description: "Chooses a listing, as on /eod" }),
          provider: textParam(200)
            .optional()
            .openapi({
              description: `One or several (comma-separated) of ${FUNDAMENTAL_PROVIDERS.join(", ")}; all by default`,
            }),
          fmt: z.enum(["eodhd", "raw"]).default("eodhd"),
          nocache: BoolParam.openapi({ description: "Build the answer again instead of the cached one" }),
        }),
      },
      responses: {
        200: {
          description: "fmt=eodhd: the rendered document; fmt=raw: each provider's answer as it came",
          content: { "application/json": { schema: FundamentalsAnswerSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetRenderedFundamentals(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = await getRenderedFundamentals({ ctx: c.get("deps"), input: c.req.valid("query") });
    // The document is assembled section by section; its schema is checked by the contract tests.
    return c.json(body as FundamentalsAnswer, 200);
  });
}
