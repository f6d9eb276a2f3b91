import { z } from "@hono/zod-openapi";
import { flatRows } from "../../../domain/workspace/tables";
import { getInsiderTransactions } from "../../../services/insider/get-insider";
import { CodesParam } from "../../insider/get";
import { DateParam, TickerParam } from "../../params";
import type { WidgetRoutes } from "../define";

export function registerInsiderTransactionsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/insider-transactions/{ticker}",
    queryPath: "/workspace/insider-transactions",
    kind: "table",
    description:
      "Feeds the svc_insider_transactions table widget: Form 4 transactions from /insider-transactions/{ticker} as flat rows, newest first. Any key; 404 for a non-US listing.",
    summary: "svc_insider_transactions: Form 4 transactions, newest first",
    params: { ticker: TickerParam.openapi({ example: "AAPL" }) },
    query: {
      limit: z.coerce.number().int().min(1).max(1000).default(50),
      from: DateParam.optional(),
      to: DateParam.optional(),
      code: CodesParam.optional(),
    },
    errors: [404],
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const r = await getInsiderTransactions({
        ctx: c.get("deps"),
        input: { ticker: q.ticker, limit: q.limit, from: q.from, to: q.to, codes: q.code },
      });
      return flatRows(r.transactions as unknown as Record<string, unknown>[]);
    },
  });
}
