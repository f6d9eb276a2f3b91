/** A day in milliseconds: UTC days, which have no leap seconds in JavaScript time. */
export const DAY_MS = 86_400_000;

/** An instant as ISO 8601 in UTC to the second, the way the service's answers write bar times: `2026-11-25T14:30:00Z`. */
export const isoInstant = (d: Date): string => d.toISOString().replace(".000Z", "Z");
