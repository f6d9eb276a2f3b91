import { type Config, MAX_KEY_LENGTH } from "./env";

export type KeyKind = "full" | "read_only";
/**
 * Who may call a route: anyone, any key, a full-access key, or an admin (a full-access key of the
 * settings: the only keys that manage keys, so that a leaked managed key cannot mint others).
 */
export type Access = "public" | "any" | "full" | "admin";

/**
 * The client's address as the platform gives it, as what lookups of made-up keys are bounded by: an
 * IPv4 address, or an IPv6 address's /64 (one subscriber holds a whole /64, so its addresses are
 * one client).
 * @example clientAddress(new Headers({ "cf-connecting-ip": "2001:db8:0:7::1" })) // "2001:db8:0:7::/64"
 */
export function clientAddress(headers: Headers): string | undefined {
  const ip = headers.get("cf-connecting-ip")?.trim().slice(0, 64);
  if (!ip) return undefined;
  if (!ip.includes(":")) return ip;
  const [head = "", tail] = ip.toLowerCase().split("::", 2);
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

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

/** Bytes in lower-case hex. */
export const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** `bytes` random bytes in hex: what keys, key ids and tickets are drawn from. */
export const randomHex = (bytes: number): string => hex(crypto.getRandomValues(new Uint8Array(bytes)));

/** The SHA-256 of a key in hex: what a managed key is stored and looked up by. */
export async function keyHash(key: string): Promise<string> {
  return hex(await digest(key));
}

/** The first 16 bytes of a key's digest, in hex. */
function fingerprintOf(digest: Uint8Array): string {
  return hex(digest.subarray(0, 16));
}

/** Equal-length digests compared without an early exit, so timing tells nothing about the key. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
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
