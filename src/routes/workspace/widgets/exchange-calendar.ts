import type { Row } from "../../../domain/workspace/tables";
import { type ExchangeBody, getExchange } from "../../../services/exchanges/exchanges";
import { textParam } from "../../openapi";
import type { WidgetRoutes } from "../define";

export function registerExchangeCalendarWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/exchanges/{code}/calendar",
    queryPath: "/workspace/exchanges/calendar",
    kind: "table",
    description:
      "Feeds the svc_exchange_calendar table widget (one of the service's own): the holidays and early closes of /exchanges/{code} for this year and next, one row per date with its weekday. Any key.",
    summary: "svc_exchange_calendar: a venue's holidays and early closes this year and next, by date",
    params: { code: textParam(20).openapi({ example: "XETRA" }) },
    query: {},
    errors: [404],
    handle: async (c, q) => {
      const { body } = getExchange({ ctx: c.get("deps"), input: { code: q.code } });
      return calendarRows(body);
    },
  });
}

/** A venue's closures and short sessions as one table by date, each row saying which it is. */
function calendarRows(venue: ExchangeBody): Row[] {
  const weekday = (date: string) =>
    new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
  return [
    ...venue.holidays.map((h) => ({
      date: h.date,
      weekday: weekday(h.date),
      kind: "holiday",
      name: h.name,
      close: null,
    })),
    ...venue.early_closes.map((e) => ({
      date: e.date,
      weekday: weekday(e.date),
      kind: "early close",
      name: null,
      close: e.close,
    })),
  ].sort((a, b) => a.date.localeCompare(b.date));
}
