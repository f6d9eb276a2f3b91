/** A day in milliseconds: UTC days, which have no leap seconds in JavaScript time. */
export const DAY_MS = 86_400_000;

/** An instant as ISO 8601 in UTC to the second, the way the service's answers write bar times: `2026-11-25T14:30:00Z`. */
export const isoInstant = (d: Date): string => d.toISOString().replace(".000Z", "Z");

/** The UTC day of an instant, YYYY-MM-DD: the one way the service writes a day from a Date. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/** A YYYY-MM-DD day moved by whole calendar days. @example addDays("2026-03-01", -1) // "2026-02-28" */
export const addDays = (day: string, days: number): string =>
  isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/** The later of two YYYY-MM-DD days (strings compare as days). */
export const laterDay = (a: string, b: string): string => (a >= b ? a : b);

/** The earlier of two YYYY-MM-DD days. */
export const earlierDay = (a: string, b: string): string => (a <= b ? a : b);
