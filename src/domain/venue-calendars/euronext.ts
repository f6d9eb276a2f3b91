/**
 * The Euronext cash markets on its harmonised calendar: Paris, Amsterdam, Brussels, Lisbon and
 * Dublin (Euronext Dublin keeps no Irish bank holiday: it trades on St Patrick's Day and the
 * Irish bank holidays). Milan and Oslo, Euronext's too, keep calendars of their own.
 */
import type { Venue } from "./venue";

const EURONEXT_HOLIDAYS = {
  "2026-01-01": "New Year's Day",
  "2026-04-03": "Good Friday",
  "2026-04-06": "Easter Monday",
  "2026-05-01": "Labour Day",
  "2026-12-25": "Christmas Day",
  "2027-01-01": "New Year's Day",
  "2027-03-26": "Good Friday",
  "2027-03-29": "Easter Monday",
};
/** Euronext's hours are set in Central European Time: the early close is 14:05 in Paris. */
const EURONEXT_EARLY = { "2026-12-24": "14:05", "2026-12-31": "14:05", "2027-12-24": "14:05", "2027-12-31": "14:05" };
const EURONEXT_SOURCE = {
  name: "Euronext trading calendar and hours (cash markets)",
  url: "https://www.euronext.com/en/trade/trading-hours-holidays",
  asOf: "2026-11-27",
};

/** An HH:MM time an hour earlier. */
const hourEarlier = (time: string) => `${String(Number(time.slice(0, 2)) - 1).padStart(2, "0")}${time.slice(2)}`;

/** The same instants in local time where the clocks are an hour behind Paris, summer and winter alike (Lisbon, Dublin). */
const hourBehindParis = (hours: Pick<Venue, "open" | "close" | "earlyCloses">) => ({
  open: hourEarlier(hours.open),
  close: hourEarlier(hours.close),
  earlyCloses: Object.fromEntries(Object.entries(hours.earlyCloses).map(([d, t]) => [d, hourEarlier(t)])),
});

/** Paris's hours, set in Central European Time. */
const CET_HOURS = { open: "09:00", close: "17:30", earlyCloses: EURONEXT_EARLY };

type Market = Pick<Venue, "code" | "mic" | "name" | "timeZone" | "suffix" | "delayedExchangeName" | "countries"> & {
  delayedExchange: string;
  /** Lisbon and Dublin keep their clocks an hour behind Paris. */
  hourBehindParis?: true;
};

const euronext = ({ delayedExchange, hourBehindParis: behind, ...market }: Market): Venue => ({
  ...market,
  ...(behind ? hourBehindParis(CET_HOURS) : CET_HOURS),
  holidays: EURONEXT_HOLIDAYS,
  source: EURONEXT_SOURCE,
  delayedExchanges: [delayedExchange],
  streamExchange: "EURONEXT",
  currency: "EUR",
});

export const EURONEXT: readonly Venue[] = [
  euronext({
    code: "PAR",
    mic: "XPAR",
    name: "Euronext Paris",
    timeZone: "Europe/Paris",
    suffix: "PA",
    delayedExchange: "PAR",
    delayedExchangeName: "Paris",
    countries: ["FR"],
  }),
  euronext({
    code: "AMS",
    mic: "XAMS",
    name: "Euronext Amsterdam",
    timeZone: "Europe/Amsterdam",
    suffix: "AS",
    delayedExchange: "AMS",
    delayedExchangeName: "Amsterdam",
    countries: ["NL"],
  }),
  euronext({
    code: "BRU",
    mic: "XBRU",
    name: "Euronext Brussels",
    timeZone: "Europe/Brussels",
    suffix: "BR",
    delayedExchange: "BRU",
    delayedExchangeName: "Brussels",
    countries: ["BE"],
  }),
  euronext({
    code: "LIS",
    mic: "XLIS",
    name: "Euronext Lisbon",
    timeZone: "Europe/Lisbon",
    suffix: "LS",
    delayedExchange: "LIS",
    delayedExchangeName: "Lisbon",
    countries: ["PT"],
    hourBehindParis: true,
  }),
  euronext({
    code: "DUB",
    mic: "XDUB",
    name: "Euronext Dublin",
    timeZone: "Europe/Dublin",
    suffix: "IR",
    delayedExchange: "ISE",
    delayedExchangeName: "Irish",
    countries: ["IE"],
    hourBehindParis: true,
  }),
];
