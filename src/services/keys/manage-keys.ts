import { keyHash, randomHex } from "../../auth";
import {
  type ApiKeyRow,
  findActiveKeyByName,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  updateApiKey,
} from "../../db/repositories/api-keys";
import { MANAGED_KEY_PREFIX, type ManagedKey, SHOWN_PREFIX_LENGTH } from "../../domain/api-keys";
import { BadRequestError, NotFoundError, ServiceError } from "../../domain/errors";
import type { Context } from "../../platform/context";
import { KEY_CACHE_SECONDS, keyCache } from "../../platform/key-cache";

/** Within how long every isolate refuses a revoked key (each reads a key at most this often). */
export const KEY_REVOCATION_SECONDS = KEY_CACHE_SECONDS;

type KeysContext = Pick<Context, "db" | "clock">;

/** A new key: its row, and the key itself, which is never stored and shown this once. */
export async function createKey(
  ctx: KeysContext,
  input: { name: string; kind: ApiKeyRow["kind"]; expiresAt: Date | null; rateLimit: number | null },
): Promise<{ row: ManagedKey; key: string }> {
  const now = ctx.clock.now();
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime())
    throw new BadRequestError("expires_at is in the past", [{ path: "expires_at", message: "a future instant" }]);
  const key = `${MANAGED_KEY_PREFIX}${randomHex(20)}`;
  const row = await insertApiKey(ctx.db, {
    id: `key_${randomHex(8)}`,
    name: input.name,
    kind: input.kind,
    hash: await keyHash(key),
    prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
    expiresAt: input.expiresAt,
    rateLimit: input.rateLimit,
    createdAt: now,
  });
  if (!row) {
    const holder = await findActiveKeyByName(ctx.db, input.name);
    throw new ServiceError(
      "CONFLICT",
      `A key named '${input.name}' is in force${holder ? ` (${holder.id})` : ""}: choose another name, or revoke it first (its key is shown only when created)`,
    );
  }
  return { row, key };
}

export function listKeys(ctx: KeysContext, includeRevoked: boolean): Promise<ManagedKey[]> {
  return listApiKeys(ctx.db, { includeRevoked });
}

/** Renames a key or changes its expiry or rate limit (null: none, the service's); its kind is fixed at creation. 404 for no key or a revoked one. */
export async function updateKey(
  ctx: KeysContext,
  id: string,
  change: { name?: string; expiresAt?: Date | null; rateLimit?: number | null },
): Promise<ManagedKey> {
  if (change.expiresAt && change.expiresAt.getTime() <= ctx.clock.now().getTime())
    throw new BadRequestError("expires_at is in the past", [{ path: "expires_at", message: "a future instant" }]);
  const row = await updateApiKey(ctx.db, id, change);
  if (row === "name_taken") throw new ServiceError("CONFLICT", `Another key in force is named '${change.name}'`);
  if (!row) throw new NotFoundError("Key", id, "unknown, or revoked (a revoked key does not change)");
  keyCache.forget(row.hash);
  return row;
}

/**
 * Revokes a key: this isolate refuses it at once, every other within KEY_CACHE_SECONDS. Revoking a
 * revoked key answers it as it is (idempotent); 404 for an unknown one.
 */
export async function revokeKey(ctx: KeysContext, id: string): Promise<ManagedKey> {
  const row = await revokeApiKey(ctx.db, id, ctx.clock.now());
  if (!row) throw new NotFoundError("Key", id);
  keyCache.forget(row.hash);
  return row;
}
