import { DAY_MS } from "../instants";
import type { NewsArticle } from "./article";

/** Bounds of what is stored of an article (a provider's text is not trusted to be sane). */
const MAX_TITLE = 500;
const MAX_SUMMARY = 4000;
const MAX_SHORT = 200;
/** Longer addresses are tracking noise, and would not fit Postgres' unique index. */
const MAX_URL = 2048;
/** No news provider reaches further back; later than a day ahead is a unit mistake (milliseconds for seconds). */
const EARLIEST = Date.parse("1995-01-01T00:00:00Z");
const AHEAD_MS = DAY_MS;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is this rule's purpose
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

const text = (s: string, max: number) => s.replace(CONTROL, "").trim().slice(0, max);

/** An http(s) address as given (trimmed), or null for anything else (javascript:, empty, too long). */
export function httpUrl(u: string | null | undefined): string | null {
  const s = (u ?? "").replace(CONTROL, "").trim();
  if (!s || s.length > MAX_URL) return null;
  try {
    const p = new URL(s).protocol;
    return p === "http:" || p === "https:" ? s : null;
  } catch {
    return null;
  }
}

/**
 * An article as the service keeps it, or null when it cannot be one: no title, no http(s)
 * address, or a publication time outside [1995, now + 1 day]. Text fields lose control characters
 * (Postgres refuses NUL) and are bounded; an image that is not an http(s) address is dropped.
 */
export function cleanArticle(a: NewsArticle, now: Date): NewsArticle | null {
  const title = text(a.title, MAX_TITLE);
  const url = httpUrl(a.url);
  const published = Date.parse(a.published_at);
  if (!title || !url || !Number.isFinite(published)) return null;
  if (published < EARLIEST || published > now.getTime() + AHEAD_MS) return null;
  return {
    title,
    summary: text(a.summary, MAX_SUMMARY),
    url,
    source: text(a.source, MAX_SHORT) || a.provider,
    provider: a.provider,
    author: a.author === null ? null : text(a.author, MAX_SHORT) || null,
    language: a.language,
    image_url: httpUrl(a.image_url),
    published_at: new Date(published).toISOString(),
    related_tickers: [
      ...new Set(a.related_tickers.map((t) => text(t, 32).toUpperCase()).filter((t) => /^[A-Z0-9.^=-]+$/.test(t))),
    ].slice(0, 50),
  };
}
