import { addDays } from "../instants";
import { localInstant } from "../venues";

/**
 * When the ECB publishes its euro reference rates: each TARGET working day, around 16:00 in
 * Frankfurt (the rates are the 14:15 CET concertation). Not on weekends nor on the TARGET
 * holidays: New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December.
 */
export const ECB_TIME_ZONE = "Europe/Berlin";
export const ECB_PUBLICATION_TIME = "16:00";

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Why the ECB publishes nothing on `day`, or null on a TARGET working day. */
export function noPublicationReason(day: string): string | null {
  const wd = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (wd === 0 || wd === 6) return "weekend";
  const md = day.slice(5);
  if (md === "01-01") return "TARGET holiday: New Year's Day";
  if (md === "05-01") return "TARGET holiday: Labour Day";
  if (md === "12-25") return "TARGET holiday: Christmas Day";
  if (md === "12-26") return "TARGET holiday: Boxing Day";
  const easter = easterSunday(Number(day.slice(0, 4)));
  if (day === addDays(easter, -2)) return "TARGET holiday: Good Friday";
  if (day === addDays(easter, 1)) return "TARGET holiday: Easter Monday";
  return null;
}

export const isPublicationDay = (day: string): boolean => noPublicationReason(day) === null;

/** The instant the rates of `day` are published (16:00 Frankfurt time, summer and winter). */
export const publicationInstant = (day: string): Date => localInstant(day, ECB_PUBLICATION_TIME, ECB_TIME_ZONE);

/** No stretch without a publication is longer than this (Good Friday to Easter Monday is four days). */
const LONGEST_GAP_DAYS = 10;

/**
 * The newest publication day whose rates are out at `at`: today's once 16:00 Frankfurt time has
 * passed on a working day, else the working day before.
 */
export function latestPublicationDay(at: Date): string {
  let day = at.toISOString().slice(0, 10);
  // The UTC day may be a day behind Frankfurt's around midnight: start from the day after and walk back.
  day = addDays(day, 1);
  for (let i = 0; i < LONGEST_GAP_DAYS + 2; i++, day = addDays(day, -1))
    if (isPublicationDay(day) && publicationInstant(day).getTime() <= at.getTime()) return day;
  return day;
}

/**
 * The publication a price of `day` takes: the day's own when it is a publication day and the price
 * was set after the publication (`closeAt`, a venue's close; none: the end of the day), else the
 * last one before. Answers the day, and why another day's was taken (null when the day's own;
 * `before` says why a price set before the publication took the day before's).
 * @example publicationFor("2026-11-28") // { day: "2026-11-27", why: "weekend" }
 */
export function publicationFor(
  day: string,
  closeAt?: Date,
  before = "the venue closed before the day's publication (16:00 Frankfurt time)",
): { day: string; why: string | null } {
  const own = noPublicationReason(day);
  if (own === null && (!closeAt || closeAt.getTime() >= publicationInstant(day).getTime())) return { day, why: null };
  const why = own ?? before;
  let d = addDays(day, -1);
  for (let i = 0; i < LONGEST_GAP_DAYS && !isPublicationDay(d); i++) d = addDays(d, -1);
  return { day: d, why };
}

/** The publication days from one day to another, both included, ascending. */
export function publicationDays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (isPublicationDay(d)) out.push(d);
  return out;
}
