import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getQuote } from "../../services/realtime/get-quote";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, ConvertParam, SymbolParam } from "../params";
import { QuoteSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/quote/{ticker}",
      "x-mcp-tool": "get_quote",
      "x-access": "any",
      tags: ["Realtime"],
      description:
        "The last known price of a ticker or of any delayed-provider symbol (up to 20 characters, such as ^GSPC or EURUSD=X). When the ticker is streamed and its last tick is fresh (60 s), the tick is answered (`is_realtime: true`, `source: stream_provider`, `delay_seconds: 0`, with `change` \"0\" and `previous_close` null since a tick has no previous close); otherwise the delayed provider's quote of the symbol as typed (`delay_seconds: 900`). Prices are decimal strings while `volume` is an integer, a shape the spec fixes. `subscribe_if_missing=true` also starts the ticker's stream in the background, for a full-access key only (a read-only key is answered the same and starts nothing). A 404 when the provider knows no such symbol, 503 when it fails; any key.",
      summary: "Last known price: the streamed tick, else the delayed provider's quote",
      security: keyed,
      request: {
        params: z.object({ ticker: SymbolParam }),
        query: z.object({
          subscribe_if_missing: BoolParam.openapi({
            description: "Also start the stream in the background (full-access keys only)",
          }),
          convert: ConvertParam.openapi({
            description:
              "Answer in this currency (one of the 31 of GET /fx/latest) at the newest ECB publication out at the quote's time; prices (and change) become price × rate rounded half to even to 6 decimals, `currency` and `fx` say which rate",
          }),
        }),
      },
      responses: {
        200: { description: "The quote", content: { "application/json": { schema: QuoteSchema } } },
      },
    },
    [404, 422],
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
        convert: c.req.valid("query").convert,
      },
    });
    return c.json(quote, 200);
  });
}
