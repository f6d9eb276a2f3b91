import { hex, randomHex, sameBytes } from "../../auth";
import type { Config } from "../../env";

/**
 * Realtime tickets are sealed: `tkt_`, 24 hex digits drawn at random, and 24 hex digits of an HMAC
 * of the ticker and that random part. The Worker checks the seal before anything reaches a ticker's
 * object, so a made-up ticket creates no object (a ticket without a key would otherwise make one
 * for any name); the object keeps the ticket and spends it once.
 * The seal's key is derived from the service's keys (SERVICE_API_KEYS, SERVICE_READ_ONLY_API_KEYS):
 * changing them voids the tickets not yet spent, which live 30 seconds.
 */
type KeyConfig = Pick<Config, "SERVICE_API_KEYS" | "SERVICE_READ_ONLY_API_KEYS">;

const sealKeys = new WeakMap<KeyConfig, Promise<CryptoKey | null>>();

function sealKey(config: KeyConfig): Promise<CryptoKey | null> {
  let key = sealKeys.get(config);
  if (!key) {
    const secrets = [...config.SERVICE_API_KEYS, ...config.SERVICE_READ_ONLY_API_KEYS];
    key =
      secrets.length === 0
        ? Promise.resolve(null)
        : crypto.subtle
            .digest("SHA-256", new TextEncoder().encode(`mds realtime ticket\n${secrets.join("\n")}`))
            .then((raw) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
    sealKeys.set(config, key);
  }
  return key;
}

async function sealOf(key: CryptoKey, ticker: string, nonce: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${ticker}\n${nonce}`));
  return hex(new Uint8Array(mac).subarray(0, 12));
}

/** A new sealed ticket for `ticker`; null when the service has no key to seal with. */
export async function sealTicket(config: KeyConfig, ticker: string): Promise<string | null> {
  const key = await sealKey(config);
  if (!key) return null;
  const nonce = randomHex(12);
  return `tkt_${nonce}${await sealOf(key, ticker, nonce)}`;
}

/** Whether a ticket (of the ticket's shape) was sealed here for `ticker`; compared without an early exit. */
export async function isSealedFor(config: KeyConfig, ticker: string, ticket: string): Promise<boolean> {
  const key = await sealKey(config);
  if (!key) return false;
  const nonce = ticket.slice(4, 28);
  const text = new TextEncoder();
  return sameBytes(text.encode(await sealOf(key, ticker, nonce)), text.encode(ticket.slice(28)));
}
