/**
 * The trading venues of the catalogue and their calendars: time zone, regular hours, holidays and
 * early closes of each year we know, from the venues' published calendars (`CALENDAR_SOURCES`).
 * Pure: instants are computed from the date and the venue's time zone, never read from a clock.
 */

export interface Venue {
  /** The catalogue's exchange code (listings.exchange). */
  code: string;
  /** The venue's market identifier code (ISO 10383 operating or segment MIC); null for a placeholder. */
  mic: string | null;
  name: string;
  /** IANA time zone of the venue's hours. */
  timeZone: string;
  /** Regular session, local time HH:MM. */
  open: string;
  close: string;
  /** Full-day closures, date -> name. */
  holidays: Readonly<Record<string, string>>;
  /** Shortened sessions, date -> local closing time HH:MM. */
  earlyCloses: Readonly<Record<string, string>>;
  /** Where the calendar comes from and when it was read. */
  source: { name: string; url: string; asOf: string };
}

/** The years whose holidays each venue's calendar holds; outside them only weekends are known closed. */
export const CALENDAR_YEARS = ["2026", "2027"] as const;

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
const EURONEXT_EARLY = { "2026-12-24": "14:05", "2026-12-31": "14:05", "2027-12-24": "14:05", "2027-12-31": "14:05" };
const EURONEXT_SOURCE = {
  name: "Euronext trading calendar and hours (cash markets)",
  url: "https://www.euronext.com/en/trade/trading-hours-holidays",
  asOf: "2026-11-27",
};

const euronext = (code: string, mic: string, name: string, timeZone: string): Venue => ({
  code,
  mic,
  name,
  timeZone,
  open: "09:00",
  close: "17:30",
  holidays: EURONEXT_HOLIDAYS,
  earlyCloses: EURONEXT_EARLY,
  source: EURONEXT_SOURCE,
});

const us = (code: string, mic: string, name: string): Venue => ({
  code,
  mic,
  name,
  timeZone: "America/New_York",
  open: "09:30",
  close: "16:00",
  holidays: US_HOLIDAYS,
  earlyCloses: US_EARLY,
  source: US_SOURCE,
});

/** Every venue the catalogue lists on, by its catalogue code. */
export const VENUES: Readonly<Record<string, Venue>> = {
  NASDAQ: us("NASDAQ", "XNAS", "Nasdaq Stock Market"),
  NYSE: us("NYSE", "XNYS", "New York Stock Exchange"),
  NYSEARCA: us("NYSEARCA", "ARCX", "NYSE Arca"),
  PAR: euronext("PAR", "XPAR", "Euronext Paris", "Europe/Paris"),
  AMS: euronext("AMS", "XAMS", "Euronext Amsterdam", "Europe/Amsterdam"),
  BRU: euronext("BRU", "XBRU", "Euronext Brussels", "Europe/Brussels"),
  XETRA: {
    code: "XETRA",
    mic: "XETR",
    name: "Xetra (Deutsche Börse)",
    timeZone: "Europe/Berlin",
    open: "09:00",
    close: "17:30",
    holidays: {
      "2026-01-01": "New Year's Day",
      "2026-04-03": "Good Friday",
      "2026-04-06": "Easter Monday",
      "2026-05-01": "Labour Day",
      "2026-12-24": "Christmas Eve",
      "2026-12-25": "Christmas Day",
      "2026-12-31": "New Year's Eve",
      "2027-01-01": "New Year's Day",
      "2027-03-26": "Good Friday",
      "2027-03-29": "Easter Monday",
      "2027-12-24": "Christmas Eve",
      "2027-12-31": "New Year's Eve",
    },
    // The year's last trading day ends with the closing auction at 14:00.
    earlyCloses: { "2026-12-30": "14:00", "2027-12-30": "14:00" },
    source: {
      name: "Deutsche Börse Xetra trading calendar",
      url: "https://www.xetra.com/xetra-en/newsroom/trading-calendar",
      asOf: "2026-11-27",
    },
  },
  MIL: {
    code: "MIL",
    mic: "XMIL",
    name: "Euronext Milan (Borsa Italiana)",
    timeZone: "Europe/Rome",
    open: "09:00",
    close: "17:30",
    holidays: {
      "2026-01-01": "New Year's Day",
      "2026-04-03": "Good Friday",
      "2026-04-06": "Easter Monday",
      "2026-05-01": "Labour Day",
      "2026-12-24": "Christmas Eve",
      "2026-12-25": "Christmas Day",
      "2026-12-31": "New Year's Eve",
      "2027-01-01": "New Year's Day",
      "2027-03-26": "Good Friday",
      "2027-03-29": "Easter Monday",
      "2027-12-24": "Christmas Eve",
      "2027-12-31": "New Year's Eve",
    },
    earlyCloses: {},
    source: {
      name: "Borsa Italiana trading calendar",
      url: "https://www.borsaitaliana.it/borsaitaliana/calendario-e-orari-di-negoziazione/calendario-borsa-orari-di-negoziazione.en.htm",
      asOf: "2026-11-27",
    },
  },
  LSE: {
    code: "LSE",
    mic: "XLON",
    name: "London Stock Exchange",
    timeZone: "Europe/London",
    open: "08:00",
    close: "16:30",
    holidays: {
      "2026-01-01": "New Year's Day",
      "2026-04-03": "Good Friday",
      "2026-04-06": "Easter Monday",
      "2026-05-04": "Early May bank holiday",
      "2026-05-25": "Spring bank holiday",
      "2026-08-31": "Summer bank holiday",
      "2026-12-25": "Christmas Day",
      "2026-12-28": "Boxing Day (substitute day)",
      "2027-01-01": "New Year's Day",
      "2027-03-26": "Good Friday",
      "2027-03-29": "Easter Monday",
      "2027-05-03": "Early May bank holiday",
      "2027-05-31": "Spring bank holiday",
      "2027-08-30": "Summer bank holiday",
      "2027-12-27": "Christmas Day (substitute day)",
      "2027-12-28": "Boxing Day (substitute day)",
    },
    earlyCloses: { "2026-12-24": "12:30", "2026-12-31": "12:30", "2027-12-24": "12:30", "2027-12-31": "12:30" },
    source: {
      name: "London Stock Exchange business days and UK bank holidays",
      url: "https://www.londonstockexchange.com/equities-trading/business-days",
      asOf: "2026-11-27",
    },
  },
  MCE: {
    code: "MCE",
    mic: "XMAD",
    name: "Bolsa de Madrid (BME)",
    timeZone: "Europe/Madrid",
    open: "09:00",
    close: "17:30",
    holidays: {
      "2026-01-01": "New Year's Day",
      "2026-04-03": "Good Friday",
      "2026-04-06": "Easter Monday",
      "2026-05-01": "Labour Day",
      "2026-12-25": "Christmas Day",
      "2027-01-01": "New Year's Day",
      "2027-03-26": "Good Friday",
      "2027-03-29": "Easter Monday",
    },
    earlyCloses: { "2026-12-24": "14:00", "2026-12-31": "14:00", "2027-12-24": "14:00", "2027-12-31": "14:00" },
    source: {
      name: "BME, Calendario de los mercados financieros españoles",
      url: "https://www.bolsasymercados.es",
      asOf: "2026-11-27",
    },
  },
  HEL: {
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
      url: "https://www.nasdaqomxnordic.com/tradinghours",
      asOf: "2026-11-27",
    },
  },
};

/**
 * Where listings without a known venue are placed: closed only on the days none of our venues
 * trades (weekends, 1 January, 25 December), closed by 21:00 UTC (the US close in winter), so that
 * they are refreshed with the venues that close last.
 */
export const UNKNOWN_VENUE: Venue = {
  code: "OTHER",
  mic: null,
  name: "Listings without a known venue",
  timeZone: "UTC",
  open: "00:00",
  close: "21:00",
  holidays: { "2026-01-01": "New Year's Day", "2026-12-25": "Christmas Day", "2027-01-01": "New Year's Day" },
  earlyCloses: {},
  source: { name: "the days no venue of the catalogue trades", url: "", asOf: "2026-11-27" },
};

/** The venue of a catalogue exchange code; UNKNOWN_VENUE for a listing without one or on a venue not in VENUES. */
export function venueOf(exchange: string | null): Venue {
  return (exchange && VENUES[exchange.toUpperCase()]) || UNKNOWN_VENUE;
}

/** Weekday of an ISO date, 0 = Sunday. */
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** Why `date` has no session on the venue, or null when it trades. */
export function closedReason(venue: Venue, date: string): string | null {
  const wd = weekday(date);
  if (wd === 0 || wd === 6) return "weekend";
  const holiday = venue.holidays[date];
  return holiday ? `holiday: ${holiday}` : null;
}

/** Whether the venue holds a session on `date` (its local calendar day). */
export const isTradingDay = (venue: Venue, date: string): boolean => closedReason(venue, date) === null;

/** Offset of `timeZone` from UTC at `instant`, in minutes (east positive). */
function offsetMinutes(timeZone: string, instant: number): number {
  const parts = formatter("clock", timeZone).formatToParts(new Date(instant));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((local - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The instant of a local wall-clock time on a date in a time zone (the offset read at that instant,
 * so summer and winter time both hold).
 * @example localInstant("2026-07-01", "16:00", "America/New_York").toISOString() // "2026-07-01T20:00:00.000Z"
 */
export function localInstant(date: string, time: string, timeZone: string): Date {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const first = guess - offsetMinutes(timeZone, guess) * 60_000;
  return new Date(guess - offsetMinutes(timeZone, first) * 60_000);
}

/** The venue's calendar date at an instant. */
export function localDate(venue: Venue, at: Date): string {
  const parts = formatter("date", venue.timeZone).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

// A formatter is costly to build (tens of microseconds) and a schedule check asks for thousands:
// one per time zone and use, kept for the isolate's life (two dozen at most). Parts are read by
// type, never from the formatted text, whose layout a locale's data may change.
const FORMATS = {
  clock: {
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  },
  date: { year: "numeric", month: "2-digit", day: "2-digit" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(use: keyof typeof FORMATS, timeZone: string): Intl.DateTimeFormat {
  const key = `${use} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...FORMATS[use], timeZone });
    formatters.set(key, f);
  }
  return f;
}

/** The local closing time of a session on `date` (an early close when there is one). */
export const closingTime = (venue: Venue, date: string): string => venue.earlyCloses[date] ?? venue.close;

/** The instant the session of `date` closes. */
export const closeOf = (venue: Venue, date: string): Date =>
  localInstant(date, closingTime(venue, date), venue.timeZone);

/** The instant the session of `date` opens. */
export const openOf = (venue: Venue, date: string): Date => localInstant(date, venue.open, venue.timeZone);

/**
 * The venue's latest session that has closed by `at`: today's once it has closed, else the last
 * trading day before it.
 * @example lastClosedSession(VENUES.XETRA, new Date("2026-12-28T07:00:00Z")) // "2026-12-23"
 */
export function lastClosedSession(venue: Venue, at: Date): string {
  let date = localDate(venue, at);
  if (!(isTradingDay(venue, date) && closeOf(venue, date).getTime() <= at.getTime())) date = previousDay(date);
  while (!isTradingDay(venue, date)) date = previousDay(date);
  return date;
}

const previousDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
