import {
  CALENDAR_THROUGH,
  listedVenues,
  type MarketState,
  marketState,
  requireCatalogueVenue,
  secondsUntilChange,
  yearsShown,
} from "../../domain/market-hours";
import type { Venue } from "../../domain/venues";
import type { Context } from "../../platform/context";

/** A venue as `/exchanges` lists it (instants in UTC, hours in the venue's local time). */
export interface ExchangeSummary {
  code: string;
  mic: string | null;
  name: string;
  time_zone: string;
  hours: { open: string; close: string };
  is_open: boolean;
  today: {
    date: string;
    trading: boolean;
    closed_reason: string | null;
    open: string | null;
    close: string | null;
    early_close: boolean;
  };
  next_open: string;
  next_close: string;
  calendar_source: { name: string; url: string; as_of: string };
  calendar_through: string;
}

export interface ExchangesBody {
  as_of: string;
  count: number;
  exchanges: ExchangeSummary[];
}

/** One venue with its calendar of this year and the next. */
export interface ExchangeBody extends ExchangeSummary {
  as_of: string;
  calendar_years: string[];
  calendar_note?: string;
  holidays: { date: string; name: string }[];
  early_closes: { date: string; close: string }[];
}

/** An answer and how long it stays true: until a listed venue opens or closes, at most five minutes. */
export interface Timed<T> {
  body: T;
  maxAgeSeconds: number;
}

const MAX_AGE_SECONDS = 300;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function summary(venue: Venue, state: MarketState): ExchangeSummary {
  const { today } = state;
  return {
    code: venue.code,
    mic: venue.mic,
    name: venue.name,
    time_zone: venue.timeZone,
    hours: { open: venue.open, close: venue.close },
    is_open: state.isOpen,
    today: {
      date: today.date,
      trading: today.trading,
      closed_reason: today.closedReason,
      open: iso(today.open),
      close: iso(today.close),
      early_close: today.earlyClose,
    },
    next_open: state.nextOpen.toISOString(),
    next_close: state.nextClose.toISOString(),
    calendar_source: { name: venue.source.name, url: venue.source.url, as_of: venue.source.asOf },
    calendar_through: CALENDAR_THROUGH,
  };
}

/** GET /exchanges: every venue of the catalogue, open or not at the service's clock. */
export function listExchanges({ ctx }: { ctx: Context }): Timed<ExchangesBody> {
  const at = ctx.clock.now();
  const venues = listedVenues().map((v) => ({ venue: v, state: marketState(v, at) }));
  return {
    body: {
      as_of: at.toISOString(),
      count: venues.length,
      exchanges: venues.map(({ venue, state }) => summary(venue, state)),
    },
    maxAgeSeconds: Math.min(
      MAX_AGE_SECONDS,
      secondsUntilChange(
        venues.map((v) => v.state),
        at,
      ),
    ),
  };
}

/** GET /exchanges/{code}: one venue with this year's and next year's holidays and early closes. */
export function getExchange({ ctx, input }: { ctx: Context; input: { code: string } }): Timed<ExchangeBody> {
  const venue = requireCatalogueVenue(input.code);
  const at = ctx.clock.now();
  const state = marketState(venue, at);
  const { shown, missing } = yearsShown(venue, at);
  const inYears = (date: string) => shown.includes(date.slice(0, 4));
  return {
    body: {
      as_of: at.toISOString(),
      ...summary(venue, state),
      calendar_years: shown,
      ...(missing.length
        ? { calendar_note: `No published calendar held for ${missing.join(" and ")}: only weekends are known closed` }
        : {}),
      holidays: Object.entries(venue.holidays)
        .filter(([date]) => inYears(date))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, name]) => ({ date, name })),
      early_closes: Object.entries(venue.earlyCloses)
        .filter(([date]) => inYears(date))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, close]) => ({ date, close })),
    },
    maxAgeSeconds: Math.min(MAX_AGE_SECONDS, secondsUntilChange([state], at)),
  };
}
