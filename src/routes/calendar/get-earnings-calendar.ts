import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getEarningsCalendar, MOST_CALENDAR_TICKERS } from "../../services/earnings/get-earnings-calendar";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { DateParam } from "../params";
import { EarningsCalendarAnswerSchema, earningsCalendarCsv, toEarningsCalendarBody } from "./schema";

/** The stored calendar changes when the weekly refresh of an instrument runs (one a day or so). */
const MAX_AGE_S = 3_600;

const query = z.object({
  from: DateParam.optional().openapi({ description: "First day (by report day); absent: today" }),
  to: DateParam.optional().openapi({
    description: "Last day; absent: a week after from. A window spans 366 days at most",
  }),
  tickers: z
    .string()
    .max(600)
    // Each a ticker as the catalogue writes them (a NUL byte or the like never reaches the database).
    .regex(/^[A-Za-z0-9., -]*$/, "tickers are letters, digits, '.' or '-', separated by commas")
    .optional()
    .openapi({
      example: "AAPL,MSFT",
      description: `Comma-separated catalogue tickers (${MOST_CALENDAR_TICKERS} at most); absent: every instrument`,
    }),
  fmt: z.enum(["json", "csv"]).default("json"),
});

const calendarRoute = createRoute(
  withErrors({
    method: "get",
    path: "/calendar/earnings",
    "x-mcp-tool": "get_earnings_calendar",
    "x-access": "any",
    tags: ["Fundamentals"],
    description:
      "Coming and past quarterly earnings reports of catalogue instruments within a window (`from` defaults to today, `to` to a week later, 366 days at most), for every instrument or for up to 50 `tickers`. Each row gives the instrument's preferred listing, the quarter end, the report day (or the expected range, with `date_confirmed: false`), the analysts' EPS and revenue estimates and, once reported, the actual EPS, difference and surprise in percent. Read from the database only: the daily catalogue refresh asks each instrument's reports once a week; tickers no active listing bears are listed in `unknown_tickers`. JSON or CSV with `Cache-Control: private, max-age=3600`; any key.",
    summary: "Coming and past earnings reports of the catalogue's instruments, with estimates and actuals",
    security: keyed,
    request: { query },
    responses: {
      200: {
        description: `Reports of the window by day, as stored by the weekly earnings refresh of the catalogue, JSON or CSV. Cache-Control private, max-age ${MAX_AGE_S} s`,
        content: {
          "application/json": { schema: EarningsCalendarAnswerSchema },
          "text/csv": { schema: z.string() },
        },
      },
    },
  }),
);

export function registerGetEarningsCalendar(api: OpenAPIHono<AppEnv>) {
  api.openapi(calendarRoute, async (c) => {
    const q = c.req.valid("query");
    const found = await getEarningsCalendar({ ctx: c.get("deps"), input: q });
    c.header("Cache-Control", `private, max-age=${MAX_AGE_S}`);
    return q.fmt === "csv"
      ? c.body(earningsCalendarCsv(found), 200, { "content-type": "text/csv; charset=utf-8" })
      : c.json(toEarningsCalendarBody(found), 200);
  });
}
