/**
 * The service's small readings of numbers, in one place. Pure.
 */

/** A finite number as given, else null (a provider's field that may be absent, text or NaN). */
export const finiteOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A stored decimal (its text, or a number) as a number; null stays null. */
export const decimalOrNull = (v: string | number | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);
