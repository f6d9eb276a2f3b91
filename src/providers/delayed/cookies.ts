/**
 * The cookies of one provider session (RFC 6265, the part a client of one site needs): kept from
 * Set-Cookie answers, sent back to the addresses they were set for until they expire. Times are
 * read from the caller's clock.
 */

interface Cookie {
  name: string;
  value: string;
  /** Lower-case, without a leading dot. */
  domain: string;
  /** Set without a Domain attribute: sent to that host only, not its subdomains. */
  hostOnly: boolean;
  path: string;
  secure: boolean;
  /** Epoch ms; Infinity for a session cookie. */
  expires: number;
}

/** The default path of a cookie set by `pathname`: its directory (RFC 6265 §5.1.4). */
function defaultPath(pathname: string): string {
  const slash = pathname.lastIndexOf("/");
  return slash <= 0 ? "/" : pathname.slice(0, slash);
}

const domainMatches = (host: string, c: Cookie) => host === c.domain || (!c.hostOnly && host.endsWith(`.${c.domain}`));

const pathMatches = (path: string, cookiePath: string) =>
  path === cookiePath || (path.startsWith(cookiePath) && (cookiePath.endsWith("/") || path[cookiePath.length] === "/"));

export class CookieJar {
  #cookies: Cookie[] = [];

  /** Keeps the cookies of one answer to `url`; one set for another site, or unreadable, is ignored. */
  keep(setCookies: readonly string[], url: string, nowMs: number): void {
    const at = new URL(url);
    for (const header of setCookies) {
      const cookie = parse(header, at, nowMs);
      if (!cookie) continue;
      this.#cookies = this.#cookies.filter(
        (c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path),
      );
      if (cookie.expires > nowMs) this.#cookies.push(cookie);
    }
  }

  /** The Cookie header for a request to `url` ("" when none applies), longer paths first. */
  header(url: string, nowMs: number): string {
    const at = new URL(url);
    const host = at.hostname.toLowerCase();
    return this.#cookies
      .filter(
        (c) =>
          c.expires > nowMs &&
          domainMatches(host, c) &&
          pathMatches(at.pathname || "/", c.path) &&
          (!c.secure || at.protocol === "https:"),
      )
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  /** Whether any cookie would be sent to `url`. */
  has(url: string, nowMs: number): boolean {
    return this.header(url, nowMs) !== "";
  }
}

function parse(header: string, at: URL, nowMs: number): Cookie | null {
  const [pair = "", ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  if (eq <= 0) return null;
  const host = at.hostname.toLowerCase();
  const cookie: Cookie = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    domain: host,
    hostOnly: true,
    path: defaultPath(at.pathname),
    secure: false,
    expires: Number.POSITIVE_INFINITY,
  };
  let maxAge: number | null = null;
  for (const attribute of attributes) {
    const i = attribute.indexOf("=");
    const key = (i < 0 ? attribute : attribute.slice(0, i)).trim().toLowerCase();
    const value = i < 0 ? "" : attribute.slice(i + 1).trim();
    if (key === "domain" && value) {
      const domain = value.replace(/^\./, "").toLowerCase();
      // A site may set a cookie for itself or a parent domain, never for another site.
      if (host !== domain && !host.endsWith(`.${domain}`)) return null;
      cookie.domain = domain;
      cookie.hostOnly = false;
    } else if (key === "path" && value.startsWith("/")) cookie.path = value;
    else if (key === "secure") cookie.secure = true;
    else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
    else if (key === "expires") {
      const t = Date.parse(value);
      if (!Number.isNaN(t)) cookie.expires = t;
    }
  }
  // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
  if (maxAge !== null) cookie.expires = maxAge <= 0 ? Number.NEGATIVE_INFINITY : nowMs + maxAge * 1000;
  return cookie;
}
