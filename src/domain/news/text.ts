import { decodeHTML } from "entities";

const MAX_INPUT = 20_000;

/**
 * Plain text of an HTML fragment: tags removed (block ends become spaces), entities decoded, runs
 * of whitespace collapsed. For summaries and titles that providers send as HTML or escaped HTML.
 * @example plainText("<a href='x'>LVMH&nbsp;rises</a>&nbsp;&nbsp;<font>Reuters</font>") // "LVMH rises Reuters"
 */
export function plainText(html: string | null | undefined): string {
  if (!html) return "";
  // No summary is this long; the bound also keeps the tag pattern's work linear in what is kept.
  html = html.slice(0, MAX_INPUT);
  // Decoded first as well: some feeds escape their HTML once more (&lt;p&gt;).
  const once = /&lt;\/?[a-z][^&]*&gt;/i.test(html) ? decodeHTML(html) : html;
  const withoutTags = once
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, " ")
    // A tag starts with a letter, / or !: "Price < 5 and > 3" is text.
    .replace(/<[/!]?[A-Za-z][^<>]*>/g, "");
  return decodeHTML(withoutTags)
    .replace(/[\s\u00a0]+/g, " ")
    .trim();
}

/** A text field of a provider's answer: plain text, or null when empty. */
export function textOrNull(v: unknown): string | null {
  const t = typeof v === "string" ? plainText(v) : "";
  return t.length > 0 ? t : null;
}
