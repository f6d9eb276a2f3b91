import { closeOf, isTradingDay, localDate, openOf, venueOf } from "../../src/domain/venues";
import {
  type ChartSlot,
  chartColumns,
  dailyHistory,
  hash,
  rng,
  SIM_SYMBOLS,
  type SimBar,
  type SimSymbol,
} from "./market-data";

/**
 * The delayed provider's intraday chart (v8 chart with interval 1m … 60m), as the real one answers
 * it (a recorded 5-minute answer, test/fixtures/recorded/delayed_provider/chart-IBM-5m-5d.json):
 * bars of the regular session only, stamped at their first minute and counted from the open, a
 * trailing bar at the last session's close carrying its closing price with no volume, no adjusted
 * closes, `tradingPeriods` one list per day; and its limits, refused with HTTP 422 "Unprocessable
 * Entity": a start older than the history kept for the interval (1m: 30 days; 2m–90m: 60 days;
 * 60m/1h: 730 days) or a 1-minute request longer than 8 days.
 *
 * Minutes are made from the simulator's own daily bar of the session, so the day's minutes open at
 * its open, close at its close and touch its high and low: resampled they give the daily bar back.
 */

const MINUTES: Record<string, number> = {
  "1m": 1,
  "2m": 2,
  "5m": 5,
  "15m": 15,
  "30m": 30,
  "60m": 60,
  "90m": 90,
  "1h": 60,
};
const REACH_DAYS: Record<string, number> = { "1m": 30, "60m": 730, "1h": 730 };
const reachOf = (interval: string) => REACH_DAYS[interval] ?? 60;
const DAY = 86_400;

/** Whether a chart request asks for intraday bars. */
export const isIntraday = (interval: string): boolean => interval in MINUTES;

type Refusal = { status: 422; body: unknown };
const refusal = (description: string): Refusal => ({
  status: 422,
  body: { chart: { result: null, error: { code: "Unprocessable Entity", description } } },
});

const round2 = (x: number) => Math.round(x * 100) / 100;

/** A minute (or a bar of several) as the chart sends it; `missing`: a slot sent as nulls. */
type Minute = ChartSlot;

const minuteCache = new Map<string, Minute[]>();

/**
 * The minutes of one session: a bridge from the daily open to the daily close, kept within its
 * low and high, touching each once; the day's volume spread with more at the open and the close.
 */
function sessionMinutes(s: SimSymbol, day: SimBar): Minute[] {
  const key = `${s.symbol}|${day.date}`;
  const hit = minuteCache.get(key);
  if (hit) return hit;
  const venue = venueOf(s.exchange);
  const open = openOf(venue, day.date).getTime() / 1000;
  const n = Math.round((closeOf(venue, day.date).getTime() / 1000 - open) / 60);
  const r = rng(hash(`${s.symbol}:${day.date}:minutes`));
  const walk = [0];
  for (let i = 1; i <= n; i++) walk.push((walk[i - 1] as number) + (r() - 0.5));
  const end = walk[n] as number;
  const bridge = walk.map((w, i) => w - (end * i) / n);
  const swing = Math.max(...bridge.map(Math.abs)) || 1;
  const scale = ((day.high - day.low) / 2 / swing) * 0.9;
  const path = bridge.map((b, i) => {
    const p = day.open + ((day.close - day.open) * i) / n + b * scale;
    return round2(Math.min(day.high, Math.max(day.low, p)));
  });
  path[0] = day.open;
  path[n] = day.close;
  const weights = Array.from({ length: n }, (_, i) => 1 + 2 * ((i / n - 0.5) * 2) ** 2);
  const total = weights.reduce((a, b) => a + b, 0);
  let given = 0;
  const out: Minute[] = [];
  for (let i = 0; i < n; i++) {
    const o = path[i] as number;
    const c = path[i + 1] as number;
    const volume = i === n - 1 ? day.volume - given : Math.floor((day.volume * (weights[i] as number)) / total);
    given += volume;
    out.push({
      time: open + i * 60,
      open: o,
      high: Math.max(o, c),
      low: Math.min(o, c),
      close: c,
      volume,
      missing: false,
    });
  }
  // The day's extremes are printed once each, in a minute of their own.
  const iHigh = Math.floor(r() * n);
  const iLow = (iHigh + 1 + Math.floor(r() * (n - 1))) % n;
  (out[iHigh] as Minute).high = day.high;
  (out[iLow] as Minute).low = day.low;
  // Now and then a slot comes as nulls (its volume goes with it, as the provider's does).
  for (const m of out)
    if (r() < 0.003 && m !== out[0] && m !== out[n - 1] && m !== out[iHigh] && m !== out[iLow]) m.missing = true;
  minuteCache.set(key, out);
  return out;
}

/**
 * The minutes the simulator serves of `symbol`'s session on `date` (the slots it sends as nulls
 * left out), in its own units (pence for a London line): what tests expect the service to store.
 */
export function simMinutes(symbol: string, date: string): Omit<Minute, "missing">[] {
  const s = SIM_SYMBOLS.get(symbol);
  const day = dailyHistory(symbol, date).bars.at(-1);
  if (!s || day?.date !== date) return [];
  return sessionMinutes(s, day)
    .filter((m) => !m.missing)
    .map(({ missing: _, ...m }) => m);
}

/** Minutes in bars of `width` minutes counted from the session's open (epoch seconds), stamped at their first minute. */
function aggregate(minutes: readonly Minute[], width: number, open: number): Minute[] {
  const out: Minute[] = [];
  for (const m of minutes) {
    const time = open + Math.floor((m.time - open) / (width * 60)) * width * 60;
    const cur = out.at(-1);
    if (cur?.time === time) {
      cur.high = Math.max(cur.high, m.high);
      cur.low = Math.min(cur.low, m.low);
      cur.close = m.close;
      cur.volume += m.volume;
    } else out.push({ ...m, time });
  }
  return out;
}

/**
 * The minutes of a symbol's sessions within [p1, p2) epoch seconds, up to `now` (a session under
 * way shows what has traded), each session with its own: a year of 1h bars is one pass, not one
 * pass over every minute for each day.
 */
function minutesIn(
  s: SimSymbol,
  p1: number,
  p2: number,
  now: number,
): { sessions: { day: SimBar; minutes: Minute[] }[]; days: SimBar[] } {
  const venue = venueOf(s.exchange);
  const today = localDate(venue, new Date(now * 1000));
  const days = dailyHistory(s.symbol, today).bars.filter((b) => {
    if (!isTradingDay(venue, b.date)) return false;
    const open = openOf(venue, b.date).getTime() / 1000;
    const close = closeOf(venue, b.date).getTime() / 1000;
    return close > p1 && open < p2 && open <= now;
  });
  const sessions = days.map((day) => ({
    day,
    minutes: sessionMinutes(s, day).filter((m) => m.time >= p1 && m.time < p2 && m.time + 60 <= now),
  }));
  return { sessions, days };
}

/** An intraday chart answer, or the provider's refusal of the window. */
export function intradayChart(
  s: SimSymbol,
  q: URLSearchParams,
  now: number,
  meta: Record<string, unknown>,
): { status: number; body: unknown } {
  const interval = q.get("interval") ?? "1m";
  const range = q.get("range");
  let p1 = Number(q.get("period1") ?? now - DAY);
  let p2 = Number(q.get("period2") ?? now);
  if (range) {
    p2 = now;
    p1 = now - (range === "5d" ? 7 : range === "1mo" ? 31 : 1) * DAY;
  }
  const reach = reachOf(interval);
  if (p1 < now - reach * DAY)
    return refusal(
      `${interval} data not available for startTime=${p1} and endTime=${p2}. The requested range must be within the last ${reach} days.`,
    );
  if (interval === "1m" && p2 - p1 > 8 * DAY)
    return refusal(
      `${interval} data not available for startTime=${p1} and endTime=${p2}. Only 8 days worth of 1m granularity data are allowed to be fetched per request.`,
    );
  const venue = venueOf(s.exchange);
  const { sessions, days } = minutesIn(s, p1, p2, now);
  const width = MINUTES[interval] ?? 1;
  const bars: Minute[] = [];
  for (const { day: d, minutes } of sessions) {
    const candles = aggregate(
      minutes.filter((m) => !m.missing),
      width,
      openOf(venue, d.date).getTime() / 1000,
    );
    const nulls = width === 1 ? minutes.filter((m) => m.missing) : [];
    bars.push(...candles, ...nulls);
  }
  bars.sort((a, b) => a.time - b.time);
  // After the last session's close the answer ends with a bar at the close: its closing price, no volume.
  const last = days.at(-1);
  const lastClose = last ? closeOf(venue, last.date).getTime() / 1000 : 0;
  const lastBar = bars.at(-1);
  if (last && lastBar && now >= lastClose && lastClose < p2 && lastClose >= p1)
    bars.push({
      time: lastClose,
      open: lastBar.close,
      high: lastBar.close,
      low: lastBar.close,
      close: lastBar.close,
      volume: 0,
      missing: false,
    });
  const periods = days.map((d) => [
    {
      timezone: meta.timezone,
      start: openOf(venue, d.date).getTime() / 1000,
      end: closeOf(venue, d.date).getTime() / 1000,
      gmtoffset: meta.gmtoffset,
    },
  ]);
  // The session of the answer's day, with the hours around it the provider also names.
  const period = (start: number, end: number) => ({ timezone: meta.timezone, start, end, gmtoffset: meta.gmtoffset });
  const day = localDate(venue, new Date(now * 1000));
  const [open, close] = [openOf(venue, day).getTime() / 1000, closeOf(venue, day).getTime() / 1000];
  const year = dailyHistory(s.symbol, day).bars.filter((b) => b.time > now - 365 * DAY);
  const m = {
    ...meta,
    exchangeTimezoneName: venue.timeZone,
    fiftyTwoWeekHigh: Math.fround(Math.max(...year.map((b) => b.high))),
    fiftyTwoWeekLow: Math.fround(Math.min(...year.map((b) => b.low))),
    previousClose: meta.chartPreviousClose,
    scale: 3,
    currentTradingPeriod: {
      pre: period(open - 5.5 * 3600, open),
      regular: period(open, close),
      post: period(close, close + 4 * 3600),
    },
    dataGranularity: interval,
    range: range ?? "",
    ...(periods.length ? { tradingPeriods: periods } : {}),
    validRanges: ["1d", "5d", "1mo", "3mo", "6mo", "1y", "2y", "5y", "10y", "ytd", "max"],
  };
  if (bars.length === 0)
    return { status: 200, body: { chart: { result: [{ meta: m, indicators: { quote: [{}] } }], error: null } } };
  const { timestamp, quote } = chartColumns(bars);
  return {
    status: 200,
    body: {
      chart: {
        result: [{ meta: m, timestamp, indicators: { quote } }],
        error: null,
      },
    },
  };
}
