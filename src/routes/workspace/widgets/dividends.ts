import { columnsFigure, emptyFigure } from "../../../domain/workspace/figures";
import { getCorporateActions } from "../../../services/corporate-actions/get-corporate-actions";
import { DateParam, ListingChoiceQuery, TickerParam } from "../../params";
import { STORES_PRICES } from "../chart-answer";
import type { WidgetRoutes } from "../define";
import { ChartQuery } from "../define";

export function registerDividendsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/dividends/{ticker}",
    queryPath: "/workspace/dividends",
    kind: "chart",
    description:
      "Feeds the svc_dividends chart widget (one of the service's own): the listing's dividends from /dividends/{ticker} as columns by ex-date, the prices being ingested on first view. Any key; `raw=true` returns the rows and `theme` picks dark or light.",
    summary: "svc_dividends: a listing's dividends by ex-date as columns (stored with its prices, as /dividends)",
    params: { ticker: TickerParam },
    query: {
      from: DateParam.optional(),
      to: DateParam.optional(),
      ...ListingChoiceQuery,
      ...ChartQuery,
    },
    errors: [404],
    extensions: STORES_PRICES,
    handle: async (c, q) => {
      const { theme, raw, ...query } = q;
      const found = await getCorporateActions({ ctx: c.get("deps"), input: query });
      const rows = found.dividends.map((d) => ({
        ex_date: d.date,
        amount: d.amount,
        currency: found.listing.currency,
      }));
      if (raw) return rows;
      if (rows.length === 0) return emptyFigure(`No dividends of ${found.listing.ticker} stored`, theme);
      return columnsFigure(
        {
          name: "Dividend per share",
          x: rows.map((r) => r.ex_date),
          y: rows.map((r) => r.amount),
          valueLabel: found.listing.currency,
        },
        theme,
      );
    },
  });
}
