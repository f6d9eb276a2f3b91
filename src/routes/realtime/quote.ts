import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, Deps } from "../../deps";
import { findQuote, getQuote, type QuoteAnswer } from "../../services/realtime/get-quote";
import { keyed, withErrors } from "../openapi";
import { BoolParam, SymbolParam } from "../params";
import { QuoteSchema } from "./schema";

const one = createRoute(
  withErrors(
    {
      method: "get",
      path: "/quote/{ticker}",
      tags: ["Realtime"],
      summary: "Last known price: the streamed tick, else the delayed provider's quote",
      security: keyed,
      request: {
        params: z.object({ ticker: SymbolParam }),
        query: z.object({
          subscribe_if_missing: BoolParam.openapi({
            description: "Also start the stream in the background (full-access keys only)",
          }),
        }),
      },
      responses: {
        200: { description: "The quote", content: { "application/json": { schema: QuoteSchema } } },
      },
    },
    [404],
  ),
);

/** At most this many tickers per GET /quotes (spec Limits): the rest are dropped. */
const MAX_QUOTES = 20;

const many = createRoute(
  withErrors({
    method: "get",
    path: "/quotes",
    tags: ["Realtime"],
    summary: "Quotes of up to 20 tickers (never starts a stream)",
    security: keyed,
    request: {
      query: z.object({
        tickers: z
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
          .pipe(z.array(z.string()).min(1, "name at least one ticker"))
          .openapi({ example: "AAPL,MC.PA,^GSPC" }),
      }),
    },
    responses: {
      200: {
        description: "A quote or null per ticker; `errors` says why each null is null",
        content: {
          "application/json": {
            schema: z
              .object({
                count: z.number().int(),
                tickers: z.array(z.string()),
                quotes: z.record(z.string(), QuoteSchema.nullable()),
                errors: z.record(z.string(), z.string()).openapi({
                  description:
                    "Ticker -> why it has no quote: not a symbol, unknown to the provider, or the provider failing",
                }),
              })
              .openapi("Quotes"),
          },
        },
      },
    },
  }),
);

/** One ticker of GET /quotes: its quote, or null and the reason (a malformed ticker spoils only itself). */
async function quoteOrReason(deps: Deps, ticker: string): Promise<{ quote: QuoteAnswer | null; error?: string }> {
  const symbol = SymbolParam.safeParse(ticker);
  if (!symbol.success) return { quote: null, error: `not a symbol: ${symbol.error.issues[0]?.message ?? "malformed"}` };
  const found = await findQuote(deps, symbol.data);
  if (found.quote) return { quote: found.quote };
  return { quote: null, error: "failed" in found ? found.failed.message : `no quote: ${found.missing}` };
}

export function registerQuotes(api: OpenAPIHono<AppEnv>) {
  api.openapi(one, async (c) => {
    const quote = await getQuote({
      ctx: c.get("deps"),
      input: {
        ticker: c.req.valid("param").ticker,
        subscribeIfMissing: c.req.valid("query").subscribe_if_missing,
        fullAccess: c.get("keyKind") === "full",
        background: (p) => c.executionCtx.waitUntil(p),
      },
    });
    return c.json(quote, 200);
  });
  return api.openapi(many, async (c) => {
    const tickers = c.req.valid("query").tickers;
    const found = await Promise.all(tickers.map((t) => quoteOrReason(c.get("deps"), t)));
    const errorsOf: Record<string, string> = {};
    found.forEach((f, i) => {
      if (f.error) errorsOf[tickers[i] ?? ""] = f.error;
    });
    return c.json(
      {
        count: tickers.length,
        tickers,
        quotes: Object.fromEntries(tickers.map((t, i) => [t, found[i]?.quote ?? null])),
        errors: errorsOf,
      },
      200,
    );
  });
}
