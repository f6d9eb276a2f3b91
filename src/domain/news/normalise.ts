/**
 * The keys news is de-duplicated on (spec News rules 3 and 4): the URL lowercased without its
 * utm_* parameters, fragment or trailing slash; the title without case, punctuation, extra
 * whitespace or the " - Publisher" suffix aggregators add.
 */

/** @example urlKey("https://Www.Reuters.com/markets/LVMH/?utm_source=x&id=3#top") // "https://www.reuters.com/markets/lvmh?id=3" */
export function urlKey(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text.toLowerCase().replace(/#.*$/, "").replace(/\/+$/, "");
  }
  const params = [...url.searchParams].filter(([k]) => !/^utm_/i.test(k));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : "";
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}${query}`.toLowerCase();
}

/** Separators aggregators put before the publisher's name. */
const SUFFIX = /\s+[-–—|]\s+([^-–—|]{1,60})$/;
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * The title as compared: without a trailing " - Publisher" (the article's own source, or any short
 * suffix after a title of five words or more), lowercased, punctuation and whitespace folded.
 * @example titleKey("LVMH's sales beat forecasts - Reuters", "Reuters") // "lvmh s sales beat forecasts"
 */
export function titleKey(title: string, source?: string | null): string {
  let t = title.normalize("NFKC").trim();
  const m = SUFFIX.exec(t);
  if (m?.[1]) {
    const suffix = m[1].trim();
    const head = t.slice(0, m.index);
    const isSource = source && suffix.toLowerCase() === source.trim().toLowerCase();
    if (isSource || (words(suffix) <= 4 && words(head) >= 5)) t = head;
  }
  return t
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
