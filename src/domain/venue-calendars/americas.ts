/** The venues of the Americas: New York's three, which share the NYSE calendar. */
import type { Venue } from "../venues";

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
];
