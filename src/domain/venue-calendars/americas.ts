/** The venues of the Americas: New York's three, which share the NYSE calendar, and Toronto. */
import type { Venue } from "./venue";

const US_HOLIDAYS = {
  "2026-01-01": "New Year's Day",
  "2026-01-19": "Martin Luther King Jr. Day",
  "2026-02-16": "Washington's Birthday",
  "2026-04-03": "Good Friday",
  "2026-05-25": "Memorial Day",
  "2026-06-19": "Juneteenth",
  "2026-07-03": "Independence Day (observed)",
  "2026-09-07": "Labor Day",
  "2026-11-26": "Thanksgiving Day",
  "2026-12-25": "Christmas Day",
  "2027-01-01": "New Year's Day",
  "2027-01-18": "Martin Luther King Jr. Day",
  "2027-02-15": "Washington's Birthday",
  "2027-03-26": "Good Friday",
  "2027-05-31": "Memorial Day",
  "2027-06-18": "Juneteenth (observed)",
  "2027-07-05": "Independence Day (observed)",
  "2027-09-06": "Labor Day",
  "2027-11-25": "Thanksgiving Day",
  "2027-12-24": "Christmas Day (observed)",
};
const US_EARLY = { "2026-11-27": "13:00", "2026-12-24": "13:00", "2027-11-26": "13:00" };
const US_SOURCE = {
  name: "NYSE Holidays & Trading Hours (NYSE, Nasdaq and NYSE Arca share it)",
  url: "https://www.nyse.com/markets/hours-calendars",
  asOf: "2026-11-27",
};

const us = (
  code: string,
  mic: string,
  name: string,
  provider: Pick<Venue, "delayedExchanges" | "delayedExchangeName" | "streamExchange">,
): Venue => ({
  code,
  mic,
  name,
  timeZone: "America/New_York",
  open: "09:30",
  close: "16:00",
  holidays: US_HOLIDAYS,
  earlyCloses: US_EARLY,
  source: US_SOURCE,
  suffix: null,
  ...provider,
  currency: "USD",
  countries: ["US"],
});

/** TSX: Ontario's statutory holidays (Family Day, Civic Holiday; not Easter Monday), weekend ones moved to Monday. */
const TSX: Venue = {
  code: "TSX",
  mic: "XTSE",
  name: "Toronto Stock Exchange",
  timeZone: "America/Toronto",
  open: "09:30",
  close: "16:00",
  holidays: {
    "2026-01-01": "New Year's Day",
    "2026-02-16": "Family Day",
    "2026-04-03": "Good Friday",
    "2026-05-18": "Victoria Day",
    "2026-07-01": "Canada Day",
    "2026-08-03": "Civic Holiday",
    "2026-09-07": "Labour Day",
    "2026-10-12": "Thanksgiving Day",
    "2026-12-25": "Christmas Day",
    "2026-12-28": "Boxing Day (observed)",
    "2027-01-01": "New Year's Day",
    "2027-02-15": "Family Day",
    "2027-03-26": "Good Friday",
    "2027-05-24": "Victoria Day",
    "2027-07-01": "Canada Day",
    "2027-08-02": "Civic Holiday",
    "2027-09-06": "Labour Day",
    "2027-10-11": "Thanksgiving Day",
    "2027-12-27": "Christmas Day (observed)",
    "2027-12-28": "Boxing Day (observed)",
  },
  earlyCloses: { "2026-12-24": "13:00", "2027-12-24": "13:00" },
  source: {
    name: "TMX Group, TSX and TSXV market hours and holidays",
    url: "https://www.tsx.com/trading/calendars-and-trading-hours",
    asOf: "2026-11-29",
  },
  suffix: "TO",
  delayedExchanges: ["TOR"],
  delayedExchangeName: "Toronto",
  streamExchange: "TSX",
  currency: "CAD",
  countries: ["CA"],
};

export const AMERICAS: readonly Venue[] = [
  us("NASDAQ", "XNAS", "Nasdaq Stock Market", {
    delayedExchanges: ["NMS", "NGM", "NCM", "NAS"],
    delayedExchangeName: "NasdaqGS",
    streamExchange: "NASDAQ",
  }),
  us("NYSE", "XNYS", "New York Stock Exchange", {
    delayedExchanges: ["NYQ"],
    delayedExchangeName: "NYSE",
    streamExchange: "NYSE",
  }),
  // The stream provider files NYSE Arca's lines under AMEX, the venue's former name.
  us("NYSEARCA", "ARCX", "NYSE Arca", {
    delayedExchanges: ["PCX"],
    delayedExchangeName: "NYSEArca",
    streamExchange: "AMEX",
  }),
  TSX,
];
