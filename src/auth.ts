import { type Config, MAX_KEY_LENGTH } from "./env";

export type KeyKind = "full" | "read_only";
/**
 * Who may call a route: anyone, any key, a full-access key, or an admin (a full-access key of the
 * settings: the only keys that manage keys, so that a leaked managed key cannot mint others).
 */
export type Access = "public" | "any" | "full" | "admin";

/**
 * Which routes need which kind of key: the one declarative place (route templates as Hono
 * matches them). Every documented operation is listed (the generated auth matrix fails for one that
 * is not); should one slip through, an unlisted GET needs any key and an unlisted write a full-access
 * key, so a new write route is closed until someone decides otherwise here.
 */
export const ROUTE_ACCESS: Readonly<Record<string, Access>> = {
  "GET /health": "public",
  "GET /widgets.json": "public",
  "GET /apps.json": "public",
  "GET /openapi.json": "public",
  "GET /docs": "public",
  "GET /docs/assets/*": "public",
  // The WebSocket checks its key itself and refuses with close code 1008, as the spec asks.
  "GET /ws/realtime/:ticker": "public",
  // Writes (spec Authentication 5).
  "POST /health/alerts/:alert_id/resolve": "full",
  "POST /health/canary/run": "full",
  "POST /cache/clear": "full",
  "POST /cache/clear/:ticker": "full",
  "POST /database/cleanup": "full",
  "POST /historical/ingest": "full",
  "POST /realtime/subscribe": "full",
  "DELETE /realtime/subscribe/:ticker": "full",
  "POST /news/:ticker/refresh": "full",
  // Managed keys: the settings' full-access keys only.
  "POST /keys": "admin",
  "GET /keys": "admin",
  "PATCH /keys/:id": "admin",
  "DELETE /keys/:id": "admin",
  // Any key reads its own usage; another key's needs an admin key (the service decides).
  "GET /usage": "any",
  // POSTs that only compute (spec Authentication 6).
  "POST /dcf/:ticker": "any",
  "POST /technical/batch": "any",
  // A ticket opens a socket as the key that asked for it: any key, as the handshake takes any.
  "POST /realtime/ticket": "any",
  // Reads: any key (spec Authentication 4).
  "GET /assets/by-isin/:isin": "any",
  "GET /listings": "any",
  "GET /catalogue/refresh": "any",
  "GET /search": "any",
  "GET /exchanges": "any",
  "GET /exchanges/:code": "any",
  "POST /catalogue/refresh": "full",
  "POST /assets": "full",
  "POST /assets/import": "full",
  "GET /assets/import/:id": "full",
  "DELETE /assets/:isin": "full",
  "GET /eod/:ticker": "any",
  "GET /eod/bulk/:exchange": "any",
  "GET /dividends/:ticker": "any",
  "GET /splits/:ticker": "any",
  "GET /intraday/:ticker": "any",
  "GET /calendar/earnings": "any",
  "GET /cache/stats": "any",
  "GET /database/stats": "any",
  "GET /database/tickers": "any",
  "GET /database/ticker/:ticker": "any",
  "GET /ticker/:symbol/history": "any",
  "GET /stocks": "any",
  "GET /technical/list": "any",
  "GET /technical/screen": "any",
  "GET /technical/screen/conditions": "any",
  "GET /technical/screen/runs/:id": "any",
  "GET /technical/:ticker": "any",
  "GET /technical/:ticker/multi": "any",
  "GET /technical/:ticker/chart": "any",
  "GET /quote/:ticker": "any",
  "GET /quotes": "any",
  "GET /realtime/status": "any",
  "GET /fundamental": "any",
  "GET /fundamental/deep": "any",
  "GET /stocks/:ticker/financials": "any",
  "GET /insider-transactions/:ticker": "any",
  "GET /etf/:isin/details": "any",
  "GET /index/:index_name/constituents": "any",
  "GET /macro/rates": "any",
  "GET /health/stats": "any",
  "GET /health/alerts": "any",
  "GET /health/providers": "any",
  "GET /health/providers/:provider_name": "any",
  "GET /health/canary/history": "any",
  "GET /news/feed": "any",
  "GET /news/stats": "any",
  "GET /news/:ticker": "any",
  "GET /dcf/:ticker": "any",
  "GET /dcf/:ticker/compare": "any",
  "GET /dcf/:ticker/sensitivity": "any",
  // The workspace's widgets, each in the spec's path form and the query form: a read-only key suffices (Authentication 4).
  "GET /workspace/dividends/:ticker": "any",
  "GET /workspace/intraday/:ticker": "any",
  "GET /workspace/intraday": "any",
  "GET /workspace/dividends": "any",
  "GET /workspace/exchanges/:code/calendar": "any",
  "GET /workspace/exchanges/calendar": "any",
  "GET /workspace/quote/:ticker": "any",
  "GET /workspace/quote": "any",
  "GET /workspace/macro/rates": "any",
  "GET /workspace/eod/:ticker": "any",
  "GET /workspace/eod": "any",
  "GET /workspace/ticker/:symbol/history": "any",
  "GET /workspace/ticker/history": "any",
  "GET /workspace/technical/:ticker": "any",
  "GET /workspace/technical": "any",
  "GET /workspace/technical/:ticker/multi": "any",
  "GET /workspace/technical/multi": "any",
  "GET /workspace/technical/:ticker/chart": "any",
  "GET /workspace/technical/chart": "any",
  "GET /workspace/fundamental": "any",
  "GET /workspace/fundamental/deep": "any",
  "GET /workspace/quotes": "any",
  "GET /workspace/technical/screen": "any",
  "GET /workspace/technical/screen/conditions": "any",
  "GET /workspace/news/:ticker": "any",
  "GET /workspace/news": "any",
  "GET /workspace/news/feed": "any",
  "GET /workspace/dcf/:ticker": "any",
  "GET /workspace/dcf": "any",
  "GET /workspace/dcf/:ticker/compare": "any",
  "GET /workspace/dcf/compare": "any",
  "GET /workspace/dcf/:ticker/sensitivity": "any",
  "GET /workspace/dcf/sensitivity": "any",
  "GET /workspace/insider-transactions/:ticker": "any",
  "GET /workspace/insider-transactions": "any",
  "GET /workspace/etf/:isin/details": "any",
  "GET /workspace/etf/details": "any",
  "GET /workspace/index/:index_name/constituents": "any",
  "GET /workspace/index/constituents": "any",
};

export function accessOf(method: string, routeTemplate: string): Access {
  const m = method === "HEAD" ? "GET" : method;
  return ROUTE_ACCESS[`${m} ${routeTemplate}`] ?? (m === "GET" ? "any" : "full");
}

/** The client's address as the platform gives it (what lookups of made-up keys are bounded by). */
export const clientAddress = (headers: Headers): string | undefined => headers.get("cf-connecting-ip") ?? undefined;

/** The key of an HTTP request: `X-API-KEY`, else `Authorization: Bearer <key>`; WebSockets may also use the query. */
export function extractKey(headers: Headers, url?: URL): string | undefined {
  const header = headers.get("x-api-key")?.trim();
  if (header) return header;
  // Only the Bearer scheme carries a key (spec Authentication 1); a bare `Authorization: <key>` is no key.
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get("authorization")?.trim() ?? "");
  if (bearer?.[1]) return bearer[1];
  return url ? socketQueryKey(url) : undefined;
}

/** The key a WebSocket handshake's query carries (`token`, `api_key` or `key`, spec Authentication 8). */
export function socketQueryKey(url: URL): string | undefined {
  for (const name of ["token", "api_key", "key"]) {
    const v = url.searchParams.get(name)?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The SHA-256 of a text (the key check's digest; an import's body is named by it too). */
export async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The SHA-256 of a key in hex: what a managed key is stored and looked up by. */
export async function keyHash(key: string): Promise<string> {
  return hex(await digest(key));
}

/** The first 16 bytes of a key's digest, in hex. */
function fingerprintOf(digest: Uint8Array): string {
  return hex(digest.subarray(0, 16));
}

/** Equal-length digests compared without an early exit, so timing tells nothing about the key. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

type KeyConfig = Pick<Config, "SERVICE_API_KEYS" | "SERVICE_READ_ONLY_API_KEYS">;

/** The configured keys' digests, computed once per config (one config per isolate). */
const configuredDigests = new WeakMap<KeyConfig, Promise<{ full: Uint8Array[]; readOnly: Uint8Array[] }>>();

function digestsOf(config: KeyConfig) {
  let d = configuredDigests.get(config);
  if (!d) {
    d = Promise.all([
      Promise.all(config.SERVICE_API_KEYS.map(digest)),
      Promise.all(config.SERVICE_READ_ONLY_API_KEYS.map(digest)),
    ]).then(([full, readOnly]) => ({ full, readOnly }));
    configuredDigests.set(config, d);
  }
  return d;
}

/** A configured key: its kind, and its fingerprint (what the rate limiter and the socket counts go by). */
export interface KeyIdentity {
  kind: KeyKind;
  /**
   * A stable, non-reversible name of the key (the first 16 bytes of its SHA-256, hex), so that the
   * key itself is handed to nothing but the comparison.
   */
  fingerprint: string;
}

/**
 * Which configured key this is, or null for none/unknown. One digest of the given key serves the
 * comparison and the fingerprint; every configured key is compared, match or not.
 * @example (await identifyKey("k1", config))?.kind // "full" when "k1" is in SERVICE_API_KEYS
 */
export async function identifyKey(key: string | undefined, config: KeyConfig): Promise<KeyIdentity | null> {
  if (!key) return null;
  // No key is that long: refused before it is hashed (an attacker's megabyte header costs nothing).
  if (key.length > MAX_KEY_LENGTH) return null;
  const [given, configured] = await Promise.all([digest(key), digestsOf(config)]);
  let full = false;
  let readOnly = false;
  for (const d of configured.full) full = sameBytes(given, d) || full;
  for (const d of configured.readOnly) readOnly = sameBytes(given, d) || readOnly;
  const kind = full ? "full" : readOnly ? "read_only" : null;
  return kind ? { kind, fingerprint: fingerprintOf(given) } : null;
}
