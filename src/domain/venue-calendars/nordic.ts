/** The Nordic venues: Nasdaq Helsinki. */
import type { Venue } from "../venues";

const NASDAQ_NORDIC_URL = "https://www.nasdaqomxnordic.com/tradinghours";

const HEL: Venue = {
  code: "HEL",
  mic: "XHEL",
  name: "Nasdaq Helsinki",
  timeZone: "Europe/Helsinki",
  open: "10:00",
  close: "18:30",
  holidays: {
    "2026-01-01": "New Year's Day",
    "2026-01-06": "Epiphany",
    "2026-04-03": "Good Friday",
    "2026-04-06": "Easter Monday",
    "2026-05-01": "May Day",
    "2026-05-14": "Ascension Day",
    "2026-06-19": "Midsummer Eve",
    "2026-12-24": "Christmas Eve",
    "2026-12-25": "Christmas Day",
    "2026-12-31": "New Year's Eve",
    "2027-01-01": "New Year's Day",
    "2027-01-06": "Epiphany",
    "2027-03-26": "Good Friday",
    "2027-03-29": "Easter Monday",
    "2027-05-06": "Ascension Day",
    "2027-06-25": "Midsummer Eve",
    "2027-12-06": "Independence Day",
    "2027-12-24": "Christmas Eve",
    "2027-12-31": "New Year's Eve",
  },
  earlyCloses: {},
  source: {
    name: "Nasdaq Nordic exchange holidays (Helsinki)",
    url: NASDAQ_NORDIC_URL,
    asOf: "2026-11-27",
  },
  suffix: "HE",
  delayedExchanges: ["HEL"],
  delayedExchangeName: "Helsinki",
  streamExchange: "OMXHEX",
  currency: "EUR",
  countries: ["FI"],
};

export const NORDIC: readonly Venue[] = [HEL];
