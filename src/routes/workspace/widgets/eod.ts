import { getEod } from "../../../services/eod/get-eod";
import type { EodAnswer } from "../../eod/schema";
import { DateParam, ListingChoiceQuery, PeriodParam, TickerParam } from "../../params";
import { answer, candleOf } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery, WidgetConvert } from "../define";

export function registerEodWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/eod/{ticker}",
    queryPath: "/workspace/eod",
    kind: "chart",
    description:
      "Feeds the svc_eod chart widget: daily candlesticks with volume from /eod/{ticker}, `period` defaulting to 1y and the listing ingested on first view. Any key; `raw=true` returns the rows (with `adj_close`). `convert` shows the prices in another currency at the ECB's reference rates, as convert= on the price routes (empty: the listing's own).",
    summary: "svc_eod: daily candlesticks with volume (ingested on first request, as /eod)",
    params: { ticker: TickerParam },
    query: {
      period: PeriodParam.default("1y"),
      from: DateParam.optional(),
      to: DateParam.optional(),
      convert: WidgetConvert,
      ...ListingChoiceQuery,
      ...ChartQuery,
    },
    errors: [404],
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const { theme, raw, ...eod } = q;
      const res = await getEod({ ctx: c.get("deps"), input: { ...eod, fmt: "json", order: "a" } });
      const body = JSON.parse(res.body) as EodAnswer;
      const rows = body.data.map((b) => ({
        date: b.Date,
        open: b.Open,
        high: b.High,
        low: b.Low,
        close: b.Close,
        adj_close: b["Adj Close"],
        volume: b.Volume,
      }));
      const candles = rows.map(candleOf);
      const priceLabel = body.conversion?.to ?? body.listing.currency;
      return answer({ theme, raw }, { candles, priceLabel }, rows, `No bars of ${body.ticker}`);
    },
  });
}
