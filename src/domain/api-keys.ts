/**
 * Managed API keys: their shape, and whether one is in force. A managed key is `mds_` and 40 hex
 * digits (160 random bits); its id (`key_` and 16 hex digits) is what everything else names it by.
 */
export const MANAGED_KEY_PREFIX = "mds_";
const MANAGED_KEY = /^mds_[0-9a-f]{40}$/;

/** Characters of a key shown in listings, so that its owner can tell which one it is. */
export const SHOWN_PREFIX_LENGTH = 8;

/** Whether a presented key has a managed key's shape (anything else is never looked up). */
export const isManagedKeyShape = (key: string): boolean => MANAGED_KEY.test(key);

/** The id under which a key from the settings appears (usage rows, answers): from its fingerprint, never the key. */
export const settingsKeyId = (fingerprint: string): string => `cfg_${fingerprint.slice(0, 8)}`;

/** A managed key as the service shows it: never the key, nor its hash. */
export interface ManagedKey {
  id: string;
  name: string;
  kind: "full" | "read_only";
  /** The key's first characters. */
  prefix: string;
  expiresAt: Date | null;
  /** Requests a minute; null: the service's KEY_RATE_LIMIT. */
  rateLimit: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Why a stored key is not in force at `now`, or null when it is. */
export function keyRefusal(key: Pick<ManagedKey, "revokedAt" | "expiresAt">, now: Date): "revoked" | "expired" | null {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return null;
}
