/**
 * The rules of the daily catalogue refresh: when each venue's session is due, which venues a run
 * covers and to which session, and what one attempt at a listing came to. Pure.
 */

import { backoff } from "./backoff";
import { closedReason, lastClosedSession, localDate, UNKNOWN_VENUE, VENUES, type Venue, venueOf } from "./venues";

/** Every venue code a refresh can cover: the calendar's venues, and OTHER for listings on none of them. */
export const REFRESH_VENUES: readonly string[] = [...Object.keys(VENUES), UNKNOWN_VENUE.code];

/** How long after a close its session is due: the providers settle the day's bar (closing auctions, late prints). */
export const SETTLE_MS = 30 * 60_000;

const venueByCode = (code: string): Venue => VENUES[code] ?? UNKNOWN_VENUE;

/** Which venues a run covers and the session each is refreshed to; the venues left out, with why. */
export interface RefreshScope {
  sessions: Record<string, string>;
  skipped: Record<string, string>;
}

/**
 * A requested refresh: each venue brought to its last closed session.
 * @example requestedScope(["XETRA"], new Date("2026-12-24T17:00:00Z")) // {sessions: {XETRA: "2026-12-23"}, skipped: {}}
 */
export function requestedScope(codes: readonly string[], at: Date): RefreshScope {
  const sessions: Record<string, string> = {};
  for (const code of codes) sessions[code] = lastClosedSession(venueByCode(code), at);
  return { sessions, skipped: {} };
}

/**
 * The scheduled refresh at `at` (the five-minute trigger): each venue whose last session closed at
 * least SETTLE_MS ago and is later than what the runs so far covered (`covered`: venue -> the
 * latest session a run took it to). So a venue is refreshed once per trading day, half an hour
 * after its close in summer and in winter, never on its holidays, and a day missed (a run still
 * going, a trigger lost) is caught up at the next tick. The others are left out, with why.
 * @example dueScope(new Date("2026-12-24T17:00:00Z"), { XETRA: "2026-12-23" }).skipped.XETRA // "2026-12-24: holiday: Christmas Eve"
 */
export function dueScope(at: Date, covered: Readonly<Record<string, string>>): RefreshScope {
  const scope: RefreshScope = { sessions: {}, skipped: {} };
  const settled = new Date(at.getTime() - SETTLE_MS);
  for (const code of REFRESH_VENUES) {
    const venue = venueByCode(code);
    const due = lastClosedSession(venue, settled);
    const done = covered[code];
    if (done === undefined || done < due) {
      scope.sessions[code] = due;
      continue;
    }
    const day = localDate(venue, at);
    const closed = closedReason(venue, day);
    scope.skipped[code] = closed
      ? `${day}: ${closed}`
      : due === day
        ? `refreshed to ${done}`
        : `${day}: the session has not closed yet (or is settling)`;
  }
  return scope;
}

/** The venue code a listing is refreshed under. */
export const refreshVenueOf = (exchange: string | null): string => venueOf(exchange).code;

/** What an ingestion reported, as the refresh counts it. */
export interface AttemptReport {
  status: "ingested" | "up_to_date" | "failed";
  written: number;
  errors: readonly { provider: string; message: string; transient: boolean }[];
}

/** The verdict on one attempt: done (with its outcome), or to be retried. */
export type AttemptVerdict =
  | { done: true; outcome: "refreshed" | "unchanged" | "failed"; reason: string | null }
  | { done: false; reason: string };

/**
 * `refreshed` when bars were written, `unchanged` when nothing was new; a failure is retried while
 * attempts remain and a retry may help (a provider's error was transient), else it is final.
 */
export function verdictOf(report: AttemptReport, attempt: number, maxAttempts: number): AttemptVerdict {
  if (report.status !== "failed")
    return { done: true, outcome: report.written > 0 ? "refreshed" : "unchanged", reason: null };
  const reason = report.errors.map((e) => `${e.provider}: ${e.message}`).join("; ") || "no provider answered";
  if (attempt < maxAttempts && report.errors.some((e) => e.transient)) return { done: false, reason };
  return { done: true, outcome: "failed", reason };
}

/**
 * Seconds before retry `attempt` + 1: `base`, then three times longer each time (30 s, 90 s,
 * 270 s by default), so that a provider's bad minute is waited out, not hammered.
 */
export const retryDelaySeconds = (attempt: number, base: number) =>
  Math.round(backoff(attempt, { first: base, factor: 3, cap: 3600 }));

/** One listing of a run, as the `catalogue-refresh` queue carries it. */
export interface RefreshMessage {
  runId: number;
  listingId: number;
  /** The session (its venue's last closed one) the listing is refreshed to. */
  session: string;
}
