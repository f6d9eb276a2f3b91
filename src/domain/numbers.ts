/**
 * The service's small readings of numbers, in one place. Pure.
 */

/** A finite number as given, else null (a provider's field that may be absent, text or NaN). */
export const finiteOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A stored decimal (its text, or a number) as a number; null stays null. */
export const decimalOrNull = (v: string | number | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

/** A number a provider gives bare or in a `{raw}` box (the delayed provider's quoteSummary); null otherwise. */
export function unboxNumber(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (v && typeof v === "object" && "raw" in v) return unboxNumber((v as { raw: unknown }).raw);
  return null;
}

/** A number written as text, thousands separators allowed ("1,250.5"); null for no text or no number. */
export function parseNumberText(t: string | null): number | null {
  if (t === null) return null;
  const x = Number(t.replace(/,/g, ""));
  return Number.isFinite(x) ? x : null;
}
