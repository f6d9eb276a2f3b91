/**
 * Text as Postgres stores it: `text` refuses the NUL character (a request could carry one in a path
 * parameter), so it is removed, and the length is bounded. Every caller-supplied text written to
 * Postgres goes through here.
 * @example storableText("AA\u0000PL", 32) // "AAPL"
 */
export function storableText(text: string, maxLength: number): string {
  return text.replaceAll("\u0000", "").slice(0, maxLength);
}
