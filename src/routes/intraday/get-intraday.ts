import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { INTRADAY_INTERVALS } from "../../domain/intraday";
import { getIntraday } from "../../services/intraday/get-intraday";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ConvertParam, DateParam, ListingChoiceQuery, TickerParam } from "../params";
import { IntradayAnswerSchema, intradayCsv, toIntradayBody } from "./schema";

/** A window reaching today (or a provider that failed) changes within the minute; a past one does not. */
const LIVE_MAX_AGE_S = 60;
const PAST_MAX_AGE_S = 3_600;

const query = z.object({
  interval: z.enum(INTRADAY_INTERVALS).default("5m").openapi({ example: "5m" }),
  from: DateParam.optional().openapi({
    description: "First session (the venue's calendar day); absent: the last session opened by `to`",
  }),
  to: DateParam.optional().openapi({ description: "Last session; absent or later: today at the venue" }),
  fmt: z.enum(["json", "csv"]).default("json"),
  convert: ConvertParam.openapi({
    description:
      "Answer in this currency: every bar of a session at the session day's ECB reference rate (as that day's daily bar on /eod), prices × rate rounded half to even to 6 decimals; `conversion`, and each bar's `fx_rate` and `fx_published` (CSV: two more columns)",
  }),
  ...ListingChoiceQuery,
});

const intradayRoute = createRoute(
  withErrors(
    {
      method: "get",
      path: "/intraday/{ticker}",
      "x-mcp-tool": "get_intraday_prices",
      "x-access": "any",
      tags: ["Prices"],
      description:
        "Intraday bars of one listing at `interval` 1m, 5m (default), 15m or 1h, for the venue's sessions in a window: `from` and `to` are the venue's calendar days, and without `from` the last session opened by `to` (or today) is answered; the listing is chosen as on /eod. Bars are built from stored 1-minute candles (the realtime stream's, else the delayed provider's, fetched while it still keeps them) or, for older sessions, from the provider's own coarser bars; a session fetched after its close is stored for good, so the history kept grows beyond the provider's. A window spans at most 31 days at 1m, 92 at 5m or 15m and 731 at 1h (400 otherwise), a past window without a session is a 404 'market closed', and a failing provider only costs its sessions plus a `warning`. JSON or CSV (`Datetime,Open,High,Low,Close,Volume`, UTC), `Cache-Control` max-age 60 s when the window reaches today, 3600 s otherwise; any key.",
      summary:
        "Intraday bars (1m, 5m, 15m, 1h) of one listing, from the realtime stream's candles and the delayed provider's, stored once fetched",
      security: keyed,
      // For the generated nets (test/hardening): this read may write (the fetched candles).
      "x-writes": true,
      request: { params: z.object({ ticker: TickerParam.openapi({ example: "AAPL" }) }), query },
      responses: {
        200: {
          description: `Bars oldest first, as JSON or CSV (header Datetime,Open,High,Low,Close,Volume). A window of 1m spans 31 days at most, of 5m or 15m 92, of 1h 731. Cache-Control private, max-age ${LIVE_MAX_AGE_S} s when the window reaches today or the provider failed, else ${PAST_MAX_AGE_S} s`,
          content: { "application/json": { schema: IntradayAnswerSchema }, "text/csv": { schema: z.string() } },
        },
      },
    },
    [404],
  ),
);

export function registerGetIntraday(api: OpenAPIHono<AppEnv>) {
  api.openapi(intradayRoute, async (c) => {
    const q = c.req.valid("query");
    const deps = c.get("deps");
    const found = await getIntraday({ ctx: deps, input: { ...q, ...c.req.valid("param") } });
    // A window reaching today may change within the minute: a session under way, or one about to open.
    const live = found.warning !== null || found.window.to === found.today;
    c.header("Cache-Control", `private, max-age=${live ? LIVE_MAX_AGE_S : PAST_MAX_AGE_S}`);
    return q.fmt === "csv"
      ? c.body(intradayCsv(found), 200, { "content-type": "text/csv; charset=utf-8" })
      : c.json(toIntradayBody(found), 200);
  });
}
