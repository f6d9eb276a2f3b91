import type { Bar } from "./bars";
import { addDays } from "./instants";
import { type Finding, median, round, UNIT_FIELDS } from "./price-sanity";
import { CALENDAR_YEARS, closedReason, closingTime, type Venue } from "./venues";

/**
 * The price sanity net's checks of bars and sessions: (c) unit glitches, (d) and (f) the venue's
 * calendar, (e) repeated sessions, (g) and (h) impossible prices.
 */

/** Neighbours each side a bar is compared with for a unit glitch. */
const UNIT_NEIGHBOURS = 5;
/** Neighbours each side a bar is first compared with (a glitch of a few days in a row still stands out at its own). */
const UNIT_PREFILTER = 3;
/** How far (in log10) from exactly 100 times a unit glitch may be: a day's move on top (70 to 141 times). */
const UNIT_LOG_SLACK = 0.15;

/**
 * (c) A bar a hundred times above or below the median close of its five neighbours each side
 * (within 70 to 141 times), field by field: the provider's pence and pounds mixed on one day.
 */
export function unitGlitches(bars: readonly Bar[]): Finding[] {
  const out: Finding[] = [];
  const far = (x: number, y: number | undefined) =>
    y !== undefined && y > 0 && x > 0 && Math.abs(Math.log10(x / y)) > 2 - UNIT_LOG_SLACK;
  for (let i = 0; i < bars.length; i++) {
    const bar = bars[i] as Bar;
    // A bar a hundred times off stands that far from a close within three sessions (the glitch may
    // last a few days): the others need no median.
    const near: number[] = [];
    for (let k = 1; k <= UNIT_PREFILTER; k++) {
      const before = bars[i - k]?.close;
      const after = bars[i + k]?.close;
      if (before !== undefined) near.push(before);
      if (after !== undefined) near.push(after);
    }
    if (!UNIT_FIELDS.some((f) => near.some((c) => far(bar[f], c)))) continue;
    const around = [
      ...bars.slice(Math.max(0, i - UNIT_NEIGHBOURS), i),
      ...bars.slice(i + 1, i + 1 + UNIT_NEIGHBOURS),
    ].map((b) => b.close);
    const level = median(around.filter((x) => x > 0));
    if (level === null || around.length < 2) continue;
    const fields: string[] = [];
    let factor = 0;
    for (const field of UNIT_FIELDS) {
      const x = bar[field];
      if (!(x > 0)) continue;
      const off = Math.log10(x / level);
      if (Math.abs(Math.abs(off) - 2) < UNIT_LOG_SLACK) {
        fields.push(field);
        factor = off > 0 ? 100 : 0.01;
      }
    }
    if (fields.length)
      out.push({
        date: bar.date,
        kind: "unit_100x",
        evidence: { factor, fields: fields.join(","), close: bar.close, neighbours_median: round(level) },
      });
  }
  return out;
}

/** (g) and (h): prices that contradict each other or cannot be. */
export function impossibleBars(bars: readonly Bar[]): Finding[] {
  const out: Finding[] = [];
  for (const b of bars) {
    const bad = (["open", "high", "low", "close"] as const).filter((f) => !(b[f] > 0));
    if (bad.length || b.volume < 0) {
      out.push({
        date: b.date,
        kind: "non_positive",
        evidence: { fields: [...bad, ...(b.volume < 0 ? ["volume"] : [])].join(","), low: b.low, volume: b.volume },
      });
      continue;
    }
    // Within two float32 steps: the provider's own rounding never makes a contradiction.
    const slack = 1 + 2 ** -22;
    if (b.high * slack < Math.max(b.open, b.close, b.low) || b.low > Math.min(b.open, b.close, b.high) * slack)
      out.push({
        date: b.date,
        kind: "ohlc_inconsistent",
        evidence: { open: b.open, high: b.high, low: b.low, close: b.close },
      });
  }
  return out;
}

/**
 * (e) A session whose open, high, low and close all repeat the session before and whose volume is
 * zero, the session before not being flat itself (a share nobody traded repeats one price, flat).
 */
export function duplicatedSessions(bars: readonly Bar[]): Finding[] {
  const out: Finding[] = [];
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1] as Bar;
    const b = bars[i] as Bar;
    const flat = prev.open === prev.close && prev.high === prev.low && prev.high === prev.close;
    if (
      b.volume === 0 &&
      !flat &&
      b.open === prev.open &&
      b.high === prev.high &&
      b.low === prev.low &&
      b.close === prev.close
    )
      out.push({ date: b.date, kind: "duplicate_session", evidence: { repeats: prev.date } });
  }
  return out;
}

const knownYear = (date: string) => (CALENDAR_YEARS as readonly string[]).includes(date.slice(0, 4));

/**
 * (d) Bars on days the venue held no session: weekends in any year (no venue of the catalogue
 * trades on one), holidays in the years its calendar holds. (f) The venue's trading days of those
 * years between the first and the last stored bar without a bar.
 */
export function calendarFindings(bars: readonly Bar[], venue: Venue): Finding[] {
  const out: Finding[] = [];
  for (const b of bars) {
    const reason = closedReason(venue, b.date);
    if (reason && (reason === "weekend" || knownYear(b.date)))
      out.push({ date: b.date, kind: "closed_day_bar", evidence: { venue: venue.code, closed: reason } });
  }
  const first = bars[0]?.date;
  const last = bars.at(-1)?.date;
  if (!first || !last) return out;
  const have = new Set(bars.map((b) => b.date));
  const start = `${CALENDAR_YEARS[0]}-01-01` > first ? `${CALENDAR_YEARS[0]}-01-01` : first;
  for (let d = start; d < last; d = addDays(d, 1)) {
    if (!knownYear(d) || have.has(d) || closedReason(venue, d) !== null) continue;
    const early = closingTime(venue, d) !== venue.close;
    out.push({
      date: d,
      kind: "missing_session",
      evidence: { venue: venue.code, ...(early ? { early_close: closingTime(venue, d) } : {}) },
    });
  }
  return out;
}
