import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getInsiderTransactions } from "../../services/insider/get-insider";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { csvList, DateParam, TickerParam } from "../params";
import { InsiderAnswerSchema } from "./schema";

export const CodesParam = csvList(
  z
    .string()
    .regex(/^[A-Za-z](,[A-Za-z])*$/, "codes are single letters separated by commas, e.g. P,S")
    .max(60)
    .transform((s) => [...new Set(s.toUpperCase().split(","))]),
).openapi({ type: "string", example: "P,S" });

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/insider-transactions/{ticker}",
      "x-mcp-tool": "get_insider_transactions",
      "x-access": "any",
      tags: ["Fundamentals"],
      description:
        "Insider transactions from SEC Form 4 and 4/A filings of a US registrant (a US ISIN, or a USD listing on NASDAQ, NYSE or NYSEARCA), newest first: owner and relationship, transaction code and its meaning, shares, price, holdings after, footnotes and the filing's link. Each call looks at EDGAR's recent filings and fetches and stores only those not stored yet, within the request's deadline (the rest wait for a later call and `meta.note` says so); answers are cached 6 hours, and EDGAR is not asked unless SEC_USER_AGENT is set. `limit` (default 50, at most 1000), `from`/`to` and `code` (e.g. `P,S`) filter the stored lines. A 404 for a listing EDGAR does not cover or a ticker it does not list; any key.",
      summary: "Insider transactions (SEC Form 4) of a US share, newest first",
      security: keyed,
      "x-writes": true,
      request: {
        params: z.object({ ticker: TickerParam.openapi({ example: "AAPL" }) }),
        query: z.object({
          limit: z.coerce.number().int().min(1).max(1000).default(50),
          from: DateParam.optional().openapi({ description: "Transactions on or after this date" }),
          to: DateParam.optional(),
          code: CodesParam.optional().openapi({ description: "Transaction codes, e.g. P,S (purchases and sales)" }),
        }),
      },
      responses: {
        200: {
          description: "The stored transactions; meta says how many filings this call fetched",
          content: { "application/json": { schema: InsiderAnswerSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetInsider(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const answer = await getInsiderTransactions({
      ctx: c.get("deps"),
      input: { ticker: c.req.valid("param").ticker, limit: q.limit, from: q.from, to: q.to, codes: q.code },
    });
    return c.json(answer, 200);
  });
}
