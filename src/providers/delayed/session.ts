import { DELAYED } from "../../domain/provider-names";
import { ProviderError } from "../errors";
import type { CookieJar } from "./cookies";

/**
 * The delayed provider's session handshake, as its own web pages do it: a page of
 * finance.yahoo.com sets the session cookie (in the EU, after the consent pages have been
 * answered), and `/v1/test/getcrumb` turns that cookie into the crumb quoteSummary asks for.
 */

export const QUOTE_PAGE = "https://finance.yahoo.com/quote/AAPL";
export const CRUMB_URL = "https://query1.finance.yahoo.com/v1/test/getcrumb";

/** Consent pages may send the client round more than once; past this the provider has changed. */
const MAX_CONSENT_ROUNDS = 5;

/** A provider's answer: its body read (`text`) only when the request asked for it. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** One provider request as the handshake sends it: never follows redirects itself. */
export type Send = (
  url: string,
  init: { method?: "GET" | "POST"; headers: Record<string, string>; body?: string; read?: boolean },
) => Promise<Answer>;

const PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml";

/** The provider refused the session (the handshake, or a crumb it expired): a new one is worth one try. */
export class SessionRefused extends ProviderError {
  constructor(why: string) {
    super(DELAYED, "unavailable", `session refused (${why})`);
  }
}

const refused = (why: string) => new SessionRefused(why);

/** Where a redirect points, read against the address that sent it; one that is no address is a refusal. */
function locationOf(location: string, base: string): URL {
  try {
    return new URL(location, base);
  } catch {
    throw refused("a redirect to something that is not an address");
  }
}

/**
 * Opens a session in `jar` and returns its crumb. `nowMs` reads the caller's clock (cookie expiry).
 */
export async function openSession(jar: CookieJar, send: Send, nowMs: () => number): Promise<string> {
  await visitPage(jar, send, nowMs, QUOTE_PAGE, 0);
  if (!jar.has(CRUMB_URL, nowMs())) throw refused("the quote page set no cookie");
  const res = await send(CRUMB_URL, {
    read: true,
    headers: {
      cookie: jar.header(CRUMB_URL, nowMs()),
      origin: "https://finance.yahoo.com",
      referer: QUOTE_PAGE,
      accept: "*/*",
      "accept-language": "en-US,en;q=0.9",
    },
  });
  const crumb = res.text.trim();
  if (res.status !== 200) throw refused(`the crumb request was answered HTTP ${res.status}`);
  // A crumb is a short token; a page or an error text in its place means the handshake changed.
  if (!/^[\w./\\-]{1,64}$/.test(crumb)) throw refused("the crumb request answered something that is not a crumb");
  return crumb;
}

/** Opens a page of the site; a redirect to the consent host goes through the consent pages. */
async function visitPage(jar: CookieJar, send: Send, nowMs: () => number, url: string, round: number): Promise<void> {
  if (round > MAX_CONSENT_ROUNDS) throw refused(`more than ${MAX_CONSENT_ROUNDS} rounds of consent pages`);
  const res = await get(jar, send, nowMs, url);
  const location = res.headers.get("location");
  const target = location ? locationOf(location, url) : null;
  // Other redirects (a regional page, say) are ignored: the cookie comes with the first answer.
  if (!target || !/(^|\.)guce\.yahoo\.com$/i.test(target.hostname)) return;
  const back = await consent(jar, send, nowMs, target.href);
  const home = locationOf(back, url);
  if (home.origin !== new URL(url).origin) throw refused(`the consent pages sent the client to ${home.host}`);
  await visitPage(jar, send, nowMs, home.href, round + 1);
}

/**
 * Answers the consent pages: the consent host either sends the client back at once, or to the
 * consent form, whose hidden fields are posted with the agreement, and whose answer is copied
 * back to the site. Returns where the site's page is to be opened again.
 */
async function consent(jar: CookieJar, send: Send, nowMs: () => number, url: string): Promise<string> {
  const first = await get(jar, send, nowMs, url);
  const next = first.headers.get("location");
  if (!next) throw refused("the consent page sent the client nowhere");
  const formUrl = locationOf(next, url).href;
  if (!/collectConsent/.test(new URL(formUrl).pathname)) return formUrl;

  const form = await get(jar, send, nowMs, formUrl, true);
  const fields = hiddenFields(form.text);
  fields.push(["agree", "agree"], ["agree", "agree"]);
  const posted = await send(formUrl, {
    method: "POST",
    headers: {
      accept: PAGE_ACCEPT,
      cookie: jar.header(formUrl, nowMs()),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  });
  if (!keep(jar, posted, formUrl, nowMs)) throw refused("the consent form's answer set no cookie");
  const copyAt = posted.headers.get("location");
  if (!copyAt) throw refused("the consent form's answer sent the client nowhere");
  const copyUrl = locationOf(copyAt, formUrl).href;
  const copied = await get(jar, send, nowMs, copyUrl);
  if (!keep(jar, copied, copyUrl, nowMs)) throw refused("the consent copy set no cookie");
  const back = copied.headers.get("location");
  if (!back) throw refused("the consent copy sent the client nowhere");
  return locationOf(back, copyUrl).href;
}

async function get(jar: CookieJar, send: Send, nowMs: () => number, url: string, read = false): Promise<Answer> {
  const cookie = jar.header(url, nowMs());
  const res = await send(url, { read, headers: { accept: PAGE_ACCEPT, ...(cookie ? { cookie } : {}) } });
  keep(jar, res, url, nowMs);
  return res;
}

/** Keeps an answer's cookies; whether it set any. */
function keep(jar: CookieJar, res: Answer, url: string, nowMs: () => number): boolean {
  const set = res.headers.getSetCookie();
  jar.keep(set, url, nowMs());
  return set.length > 0;
}

/** The hidden inputs of the consent form, in order, their values' character references decoded. */
export function hiddenFields(html: string): [string, string][] {
  const out: [string, string][] = [];
  for (const tag of html.match(/<input\b[^>]*>/gi) ?? []) {
    // An attribute on its own (not data-name=), its value in double quotes as the page writes them.
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, "i").exec(tag)?.[1];
    if (attr("type")?.toLowerCase() !== "hidden") continue;
    const name = attr("name");
    if (name) out.push([decodeReferences(name), decodeReferences(attr("value") ?? "")]);
  }
  return out;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeReferences(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
