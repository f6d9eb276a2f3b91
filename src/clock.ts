import { isoDay } from "./domain/instants";
/**
 * Time is an input: services, Durable Objects, cron jobs and the sandbox read the time here, through
 * their dependencies, so that tests can pin it. Nothing else in src/ reads the system clock for a
 * business decision.
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
  /** The current UTC calendar date, YYYY-MM-DD. */
  today(): string;
}

/** The machine's clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  today: () => isoDay(new Date()),
};

/**
 * A clock that starts at `at` and then runs at the machine's pace, so that dates are pinned while
 * deadlines and leases still see time pass.
 * @example pinnedClock("2024-02-29T15:00:00Z").today() // "2024-02-29"
 */
export function pinnedClock(at: string | Date): Clock {
  const start = typeof at === "string" ? Date.parse(at.length === 10 ? `${at}T15:00:00Z` : at) : at.getTime();
  if (Number.isNaN(start)) throw new Error(`not an instant: ${String(at)}`);
  const origin = systemClock.now().getTime();
  const now = () => new Date(start + (systemClock.now().getTime() - origin));
  return { now, today: () => isoDay(now()) };
}

/** The time left to a request before its answer must go, read on a clock. */
export interface Deadline {
  /** Milliseconds left (Infinity without a deadline, 0 once passed). */
  remainingMs(): number;
}

/** A deadline `ms` after now; `Infinity` for work that has none (a Durable Object's stream). */
export function deadlineIn(clock: Clock, ms: number): Deadline {
  if (!Number.isFinite(ms)) return { remainingMs: () => Number.POSITIVE_INFINITY };
  const until = clock.now().getTime() + ms;
  return { remainingMs: () => Math.max(0, until - clock.now().getTime()) };
}

/** ISO 8601 with an explicit offset, as the spec asks of some instants (UTC is +00:00). */
export const isoWithOffset = (d: Date): string => d.toISOString().replace("Z", "+00:00");
