/**
 * The providers' time formats, each read into an ISO 8601 UTC instant (null when it does not
 * parse): RFC 822 with a zone (RSS), ISO 8601 (Marketaux, NewsAPI), `YYYYMMDDTHHMMSS` without a
 * zone (Alpha Vantage, read as UTC: its documentation names no zone), `YYYYMMDDTHHMMSSZ` (GDELT's
 * seendate) and epoch seconds (Finnhub).
 */

/** An instant as ISO 8601 UTC; null past what Date can write (an epoch in milliseconds read as seconds). */
function iso(ms: number): string | null {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  const s = new Date(ms).toISOString();
  return /^\d{4}-/.test(s) ? s : null;
}

/** UTC milliseconds of a calendar date and time, or NaN when a field is out of range (31 February, 25:00, minute 61). */
function utc(year: number, month0: number, day: number, h: number, mi: number, se: number): number {
  if (year < 1000 || month0 < 0 || month0 > 11 || h > 23 || mi > 59 || se > 60) return Number.NaN;
  const ms = Date.UTC(year, month0, day, h, mi, Math.min(se, 59));
  return new Date(ms).getUTCDate() === day ? ms : Number.NaN;
}

/** North American zone names RSS feeds still use (RFC 822 section 5). */
const ZONES: Record<string, string> = {
  UT: "+0000",
  UTC: "+0000",
  GMT: "+0000",
  Z: "+0000",
  EST: "-0500",
  EDT: "-0400",
  CST: "-0600",
  CDT: "-0500",
  MST: "-0700",
  MDT: "-0600",
  PST: "-0800",
  PDT: "-0700",
};

/** `Tue, 20 Feb 2024 14:30:00 +0000`, `20 Feb 2024 09:30 EST`, with or without the weekday and seconds. */
export function fromRfc822(s: string): string | null {
  const m =
    /^\s*(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|[A-Za-z]{1,3})?\s*$/.exec(
      s,
    );
  if (!m) return null;
  const [, day, mon, yearText, hh, mm, ss, zoneText] = m;
  const month = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(
    (mon ?? "").toLowerCase(),
  );
  if (month < 0) return null;
  let year = Number(yearText);
  if (year < 100) year += year < 50 ? 2000 : 1900;
  const zone = zoneText ? (/^[+-]/.test(zoneText) ? zoneText : ZONES[zoneText.toUpperCase()]) : "+0000";
  if (!zone) return null;
  const offsetMin = (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
  return iso(utc(year, month, Number(day), Number(hh), Number(mm), Number(ss ?? 0)) - offsetMin * 60_000);
}

/** `20240105T140300` (Alpha Vantage) or `20240105T140000Z` (GDELT), seconds optional. */
export function fromCompact(s: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?Z?$/.exec(s.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, se] = m;
  return iso(utc(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se ?? 0)));
}

/** An ISO 8601 instant with a zone (`2024-11-08T01:24:00.000000Z`, `2024-01-05T14:03:00Z`). */
export function fromIso(s: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.exec(s.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, se, fraction, zone] = m;
  const base = utc(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se ?? 0));
  const z = zone === "Z" ? "+0000" : (zone ?? "").replace(":", "");
  const offsetMin = (z[0] === "-" ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
  // Microseconds are more than Date keeps: milliseconds.
  const ms = fraction ? Math.floor(Number(fraction) * 1000) : 0;
  return iso(base - offsetMin * 60_000 + ms);
}

/** Epoch seconds (Finnhub's `datetime`). */
export function fromEpochSeconds(n: unknown): string | null {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? iso(n * 1000) : null;
}
