import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getQuote } from "../../services/realtime/get-quote";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, SymbolParam } from "../params";
import { QuoteSchema } from "./schema";

const route = createRoute(
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

export function registerGetQuote(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
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
}
