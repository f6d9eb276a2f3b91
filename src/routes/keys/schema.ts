import { z } from "@hono/zod-openapi";
import { keyRefusal, type ManagedKey } from "../../domain/api-keys";
import { textParam } from "../openapi";

const KeyKind = z
  .enum(["full", "read_only"])
  .openapi({ description: "full: every route; read_only: reads and computations" });
const RateLimit = z
  .number()
  .int()
  .min(1)
  .max(100_000_000)
  .openapi({ description: "Requests a minute; null: the service's KEY_RATE_LIMIT (1,000 by default)", example: 120 });
const Instant = z.iso.datetime({ offset: true }).openapi({ example: "2027-06-30T00:00:00Z" });

export const KeyIdParam = z.object({
  id: z
    .string()
    .regex(/^key_[0-9a-f]{16}$/, "a key id is key_ and 16 hex digits")
    .openapi({ example: "key_0123456789abcdef" }),
});

export const CreateKeySchema = z
  .object({
    name: textParam(100).min(1).openapi({ description: "What the key is for (a user, an app)", example: "sheets" }),
    kind: KeyKind,
    expires_at: Instant.nullable().optional().openapi({ description: "When the key stops working; none by default" }),
    rate_limit: RateLimit.nullable().optional(),
  })
  .strict()
  .openapi("CreateKey", {
    example: { name: "sheets", kind: "read_only", expires_at: "2027-06-30T00:00:00Z", rate_limit: 120 },
  });

export const UpdateKeySchema = z
  .object({
    name: textParam(100).min(1).optional(),
    expires_at: Instant.nullable().optional().openapi({ description: "A new expiry; null removes it" }),
    rate_limit: RateLimit.nullable().optional().openapi({ description: "A new limit a minute; null: the service's" }),
  })
  .strict()
  .refine(
    (b) => b.name !== undefined || b.expires_at !== undefined || b.rate_limit !== undefined,
    "name, expires_at or rate_limit",
  )
  .openapi("UpdateKey", { example: { name: "sheets (finance team)" } });

export const KeySchema = z
  .object({
    id: z.string().openapi({ example: "key_0123456789abcdef" }),
    name: z.string(),
    kind: KeyKind,
    prefix: z.string().openapi({ description: "The key's first characters, to tell keys apart", example: "mds_3f9a" }),
    expires_at: z.string().nullable(),
    rate_limit: z
      .number()
      .int()
      .openapi({ description: "Requests a minute (the service's KEY_RATE_LIMIT unless set)" }),
    rate_limit_is_default: z.boolean().openapi({ description: "No limit of its own: KEY_RATE_LIMIT applies" }),
    created_at: z.string(),
    last_used_at: z
      .string()
      .nullable()
      .openapi({ description: "When the key was last used, to the minute (each isolate records it once a minute)" }),
    revoked_at: z.string().nullable(),
    state: z.enum(["active", "expired", "revoked"]),
  })
  .openapi("ApiKey");

export const CreatedKeySchema = KeySchema.extend({
  key: z.string().openapi({
    description: "The key itself: shown this once and never stored (only its SHA-256 is); keep it now",
    example: "mds_3f9a0c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7",
  }),
}).openapi("CreatedApiKey");

export const KeyListSchema = z.object({ count: z.number().int(), keys: z.array(KeySchema) }).openapi("ApiKeyList");

/** A stored key as answered: never its hash. */
export function keyOut(row: ManagedKey, now: Date, defaultLimit: number): z.infer<typeof KeySchema> {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const state = keyRefusal(row, now) ?? "active";
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    prefix: row.prefix,
    expires_at: iso(row.expiresAt),
    rate_limit: row.rateLimit ?? defaultLimit,
    rate_limit_is_default: row.rateLimit === null,
    created_at: row.createdAt.toISOString(),
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
    state,
  };
}
