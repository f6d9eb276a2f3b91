import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getQuotes, type RequestedTicker } from "../../services/realtime/get-quotes";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ConvertParam, csvList, SymbolParam } from "../params";
import { QuotesAnswerSchema } from "./schema";

/** At most this many tickers per GET /quotes (spec Limits): the rest are dropped. */
const MAX_QUOTES = 20;

/** Comma-separated tickers, de-duplicated, the first MAX_QUOTES kept. */
export const TickersParam = csvList(
  z
    .string()
    .max(2000)
    .transform((s) =>
      [
        ...new Set(
          s
            .split(",")
            .map((t) => t.trim().toUpperCase())
            .filter((t) => t.length > 0),
        ),
      ].slice(0, MAX_QUOTES),
    )
    .pipe(z.array(z.string()).min(1, "name at least one ticker")),
).openapi({ type: "string", example: "AAPL,MC.PA,^GSPC" });

const route = createRoute(
  withErrors({
    method: "get",
    path: "/quotes",
    "x-mcp-tool": "get_quotes",
    "x-access": "any",
    tags: ["Realtime"],
    description:
      "Quotes of several tickers at once, resolved as GET /quote resolves one: `tickers` comma-separated or repeated, duplicates removed and only the first 20 kept. A ticker that has no quote gets `null` in `quotes`, with the reason in `errors` (not a symbol, unknown to the provider, or the provider failing), and never fails the others. This route never starts a stream; any key.",
    summary: "Quotes of up to 20 tickers (never starts a stream)",
    security: keyed,
    request: {
      query: z.object({
        tickers: TickersParam,
        convert: ConvertParam.openapi({
          description:
            "Every quote in this currency, as GET /quote converts one; a quote whose own currency has no rates is null, with why in `errors`",
        }),
      }),
    },
    responses: {
      200: {
        description: "A quote or null per ticker; `errors` says why each null is null",
        content: {
          "application/json": {
            schema: QuotesAnswerSchema,
          },
        },
      },
    },
  }),
);

/** The listed tickers, each a symbol or what is wrong with it. */
export const requestedTickers = (tickers: readonly string[]) => tickers.map(requested);

/** A ticker of the list as a symbol, or what is wrong with it (it spoils only itself). */
function requested(ticker: string): RequestedTicker {
  const symbol = SymbolParam.safeParse(ticker);
  return symbol.success
    ? { ticker, symbol: symbol.data }
    : { ticker, problem: symbol.error.issues[0]?.message ?? "malformed" };
}

export function registerListQuotes(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(
      await getQuotes({
        ctx: c.get("deps"),
        input: { tickers: requestedTickers(c.req.valid("query").tickers), convert: c.req.valid("query").convert },
      }),
      200,
    ),
  );
}
