/**
 * The rules of the daily catalogue refresh: which venues each Cron Trigger refreshes, to which
 * session, and what one attempt at a listing came to. Pure.
 */
import { closedReason, lastClosedSession, localDate, UNKNOWN_VENUE, VENUES, type Venue, venueOf } from "./venues";

/**
 * The refresh's Cron Triggers (UTC, weekdays) and the venues each refreshes. Each fires after its
 * venues' latest close in winter and in summer time (Europe's by 16:30 UTC, New York's by 21:00
 * UTC), leaving the providers half an hour to settle the day's bar; test/unit/catalogue-refresh.test.ts
 * checks every trading day of the calendar years.
 */
export const REFRESH_TRIGGERS: Readonly<Record<string, readonly string[]>> = {
  "0 17 * * 1-5": ["PAR", "AMS", "BRU", "XETRA", "MIL", "MCE", "HEL", "LSE"],
  "30 21 * * 1-5": ["NASDAQ", "NYSE", "NYSEARCA", UNKNOWN_VENUE.code],
};

/** Every venue code a refresh can cover. */
export const REFRESH_VENUES: readonly string[] = Object.values(REFRESH_TRIGGERS).flat();

const venueByCode = (code: string): Venue => VENUES[code] ?? UNKNOWN_VENUE;

/** Which venues a refresh covers and the session each is refreshed to; venues with nothing to do, with why. */
export interface RefreshScope {
  sessions: Record<string, string>;
  skipped: Record<string, string>;
}

/**
 * The sessions to refresh at `at`. A scheduled refresh (`onTradingDaysOnly`) skips a venue whose
 * local day has no session (a holiday) or whose session has not closed yet; a requested one brings
 * every venue to its last closed session.
 * @example refreshScope(["XETRA"], new Date("2026-12-24T17:00:00Z"), true) // {sessions: {}, skipped: {XETRA: "holiday: Christmas Eve"}}
 */
export function refreshScope(codes: readonly string[], at: Date, onTradingDaysOnly: boolean): RefreshScope {
  const scope: RefreshScope = { sessions: {}, skipped: {} };
  for (const code of codes) {
    const venue = venueByCode(code);
    const last = lastClosedSession(venue, at);
    if (onTradingDaysOnly) {
      const day = localDate(venue, at);
      const closed = closedReason(venue, day);
      if (closed) {
        scope.skipped[code] = `${day}: ${closed}`;
        continue;
      }
      if (last !== day) {
        scope.skipped[code] = `${day}: the session has not closed yet`;
        continue;
      }
    }
    scope.sessions[code] = last;
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
  Math.min(3600, Math.round(base * 3 ** Math.max(0, attempt - 1)));

/** One listing of a run, as the `catalogue-refresh` queue carries it. */
export interface RefreshMessage {
  runId: number;
  listingId: number;
  /** The session (its venue's last closed one) the listing is refreshed to. */
  session: string;
}
