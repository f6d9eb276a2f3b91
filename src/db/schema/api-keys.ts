import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Managed API keys (POST /keys): stored by the SHA-256 of the key, never the key itself, with
 * what a key may do and until when. A revoked key keeps its row, so that usage rows still name it.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    /** The key's public id (`key_…`): what usage rows, the routes and the logs name it by. */
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["full", "read_only"] }).notNull(),
    /** SHA-256 of the key, hex: what a presented key is looked up by. */
    hash: text("hash").notNull(),
    /** The key's first characters (`mds_ab12`), so that its owner can tell which one it is. */
    prefix: text("prefix").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Requests a minute; null: the service's KEY_RATE_LIMIT. */
    rateLimit: integer("rate_limit"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** When the key was last seen, to the minute an isolate reads it (not every request). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_hash_uq").on(t.hash),
    // One key in force per name: a creation sent twice (a retry, a double click) mints one key.
    uniqueIndex("api_keys_active_name_uq").on(t.name).where(sql`${t.revokedAt} is null`),
    index("api_keys_created_idx").on(t.createdAt),
  ],
);
