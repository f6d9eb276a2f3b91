import { identifyKey, type KeyKind, keyHash } from "../../auth";
import { touchApiKey } from "../../db/repositories/api-keys";
import { isManagedKeyShape, keyRefusal, settingsKeyId } from "../../domain/api-keys";
import type { Context } from "../../platform/context";
import { KEY_STALE_SECONDS, keyCache } from "../../platform/key-cache";
import { refusedWith, spendRequest } from "../../platform/rate-limit";

/**
 * Database reads of keys an isolate has not read this minute, per client address a minute: a made-up
 * key of the managed shape costs one indexed read, and this bounds what one address can make them cost.
 */
export const KEY_LOOKUPS_PER_ADDRESS = 100;

/** A key the service takes: who it is (never the key), what it may do, whether it manages keys. */
export interface VerifiedKey {
  /** `cfg_…` for a key of the settings, `key_…` for a managed one. */
  id: string;
  kind: KeyKind;
  /** What per-key limits count by (see identifyKey). */
  fingerprint: string;
  /** A full-access key of the settings: the only keys that manage keys. */
  admin: boolean;
  /** Requests a minute: the key's own limit, else KEY_RATE_LIMIT. */
  rateLimit: number;
}

/** A key that is not taken, and why, in words its holder may read. */
export interface RefusedKey {
  refused: string;
}

/**
 * The key of a request: a key of the settings (compared in constant time, no database), else a
 * managed key by its hash, read from the database at most once a minute per isolate (the read also
 * records its use; such reads are bounded per client `address`, KEY_LOOKUPS_PER_ADDRESS a
 * minute, 429 past it). A read that raced a revocation in this isolate is not kept; the row just read
 * still decides this request. An expired or revoked managed key is refused with why; anything else is null.
 */
export async function verifyKey(
  ctx: Pick<Context, "config" | "clock" | "db" | "meters">,
  key: string | undefined,
  address: string | undefined,
): Promise<VerifiedKey | RefusedKey | null> {
  if (!key) return null;
  const settings = await identifyKey(key, ctx.config);
  if (settings)
    return {
      id: settingsKeyId(settings.fingerprint),
      kind: settings.kind,
      fingerprint: settings.fingerprint,
      admin: settings.kind === "full",
      rateLimit: ctx.config.KEY_RATE_LIMIT,
    };
  if (!isManagedKeyShape(key) || !ctx.config.DATABASE_URL) return null;
  const hash = await keyHash(key);
  const now = ctx.clock.now();
  let entry = keyCache.get(hash, now.getTime());
  if (!entry) {
    const lookups = await spendRequest(
      ctx.meters,
      `ip:${address ?? "unknown"}`,
      KEY_LOOKUPS_PER_ADDRESS,
      now.getTime(),
    );
    if (lookups && !lookups.allowed) throw refusedWith(lookups, "This address has presented more keys unknown here");
    const begun = keyCache.begin();
    try {
      const row = await touchApiKey(ctx.db, hash, now);
      keyCache.set(hash, row, now.getTime(), begun);
      entry = { row, readAt: now.getTime() };
    } catch (err) {
      // The database cannot say: what this isolate read within KEY_STALE_SECONDS stands in; else the error.
      entry = keyCache.get(hash, now.getTime(), KEY_STALE_SECONDS);
      if (!entry) throw err;
      console.warn("api key read from this isolate's memory: the database failed", String(err));
    }
  }
  const row = entry?.row;
  if (!row) return null;
  const refusal = keyRefusal(row, now);
  if (refusal) return { refused: `This API key was ${refusal}` };
  return {
    id: row.id,
    kind: row.kind,
    fingerprint: hash.slice(0, 32),
    admin: false,
    rateLimit: row.rateLimit ?? ctx.config.KEY_RATE_LIMIT,
  };
}
