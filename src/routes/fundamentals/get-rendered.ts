import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { FUNDAMENTAL_PROVIDERS } from "../../domain/provider-names";
import { getRenderedFundamentals } from "../../services/fundamentals/get-rendered";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { BoolParam, ConvertParam, CurrencyParam, ExchangeParam, IsinParam, TickerParam } from "../params";
import { type FundamentalsAnswer, FundamentalsAnswerSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/fundamental",
      "x-mcp-tool": "get_fundamentals",
      "x-access": "any",
      tags: ["Fundamentals"],
      description:
        "The fundamentals document in EODHD's layout (General, Highlights, Valuation, SharesStats, Technicals, SplitsDividends, AnalystRatings, Holders, InsiderTransactions, ESGScores, Earnings, Financials; for an ETF General, Technicals and ETF_Data) for the listing chosen by `ticker` or `isin` (with `exchange` and `currency` as on /eod), so it is never about another instrument. `Currencies` says which figures are in the trading and which in the reporting currency; `convert` gives all in one. Each figure comes from the delayed provider's answer to this request (asked only under the listing's verified symbol), else from the figures the deep enrichment stored (labelled `database (<fetch_date>)`), else, for trailing P/E, EPS and dividend yield only, from a scraped page; `Sources` names the origin of every figure and `Providers` what each provider returned. `provider` restricts the providers asked, `fmt=raw` returns each provider's answer as it came, `nocache=true` rebuilds; complete answers are cached one hour, and what the delayed provider returns is stored as the deep enrichment would store it. 400 without ticker or isin or for an unknown provider, 404 when the instrument is not in the catalogue and cannot be discovered; any key.",
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
          convert: ConvertParam.openapi({
            description:
              "fmt=eodhd only: every money figure in this currency (one of GET /fx/latest's), figures in the reporting currency (statements, estimates) from it and those in the trading currency (price, market capitalisation, per-share trading figures) from that; snapshot figures at the newest ECB reference rate, balance sheets at their period end's, income statements, cash flows and reported EPS at their period's average (each row's fx_rate and fx_basis); Currencies and Conversion say which; while older years of rates are fetched their periods' figures are null, said in Conversion.Notes (retry)",
          }),
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
