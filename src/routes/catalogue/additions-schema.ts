import { z } from "@hono/zod-openapi";
import { MAX_ITEMS_PER_REQUEST } from "../../domain/catalogue-additions";
import type { AdditionItem, ItemResult } from "../../services/catalogue/additions/add-assets";
import type { Addition } from "../../services/catalogue/additions/add-instrument";
import { statusOf } from "../errors";
import { ErrorSchema, textParam } from "../openapi";
import { AssetSchema, toAsset } from "./schema";

/** A share of the sandbox's world (Nasdaq), which no seed catalogue holds: the documented example of an addition. */
export const EXAMPLE_ISIN = "USW000000019";

const IsinItem = z.object({ isin: textParam(64).openapi({ example: "US00287Y1091" }) }).strict();
const SymbolItem = z
  .object({
    symbol: textParam(64).openapi({ example: "AZN.L", description: "A ticker of at most 10 characters" }),
    exchange: textParam(16).optional().openapi({ example: "LSE", description: "A catalogue exchange code" }),
  })
  .strict();
const Item = z.union([IsinItem, SymbolItem]);

export const AdditionRequestSchema = z
  .union([IsinItem, SymbolItem, z.object({ items: z.array(Item).min(1).max(MAX_ITEMS_PER_REQUEST) }).strict()])
  .openapi("AdditionRequest", {
    example: { isin: EXAMPLE_ISIN },
    description: `One ISIN, one symbol, or up to ${MAX_ITEMS_PER_REQUEST} of them as items (each answered on its own)`,
  });

const RefusedSchema = z.object({ symbol: z.string(), reason: z.string() });

export const AdditionSchema = AssetSchema.extend({
  status: z.enum(["added", "extended", "reactivated", "known"]),
  added_listings: z.array(z.string()),
  refused_listings: z.array(RefusedSchema),
  found_by: z.record(z.string(), z.string()).openapi({ description: "Where each field and listing was read" }),
  added_via: z.string().openapi({ description: "seed, request (POST /assets), discovery (a read), import" }),
  added_by_key: z.string().nullable().openapi({ description: "The kind of key that added it: full or read_only" }),
  added_at: z.string(),
}).openapi("Addition");
export type AdditionAnswer = z.infer<typeof AdditionSchema>;

export const AdditionListSchema = z
  .object({
    results: z.array(
      z.object({
        asked: z.record(z.string(), z.string()),
        http_status: z.number().int(),
        addition: AdditionSchema.optional(),
        error: ErrorSchema.optional(),
      }),
    ),
    added: z.number().int(),
    failed: z.number().int(),
  })
  .openapi("AdditionList");

export function toAddition(a: Addition): AdditionAnswer {
  return {
    ...toAsset(a.found),
    status: a.status,
    added_listings: a.added,
    refused_listings: a.refused.map((r) => ({ symbol: r.symbol, reason: r.reason })),
    found_by: a.sources,
    added_via: a.found.asset.addedVia,
    added_by_key: a.found.asset.addedByKey,
    added_at: a.found.asset.createdAt.toISOString(),
  };
}

/** 201 when the call added something (an instrument, a listing, a reactivation), else 200. */
export const additionStatus = (a: Addition): 200 | 201 => (a.status === "known" ? 200 : 201);

export function toAdditionList(results: readonly ItemResult[]) {
  const rows = results.map((r) =>
    "addition" in r
      ? { asked: askedOf(r.asked), http_status: additionStatus(r.addition), addition: toAddition(r.addition) }
      : {
          asked: askedOf(r.asked),
          http_status: statusOf(r.error.code),
          error: {
            error: r.error.code,
            message: r.error.message,
            ...(r.error.reason ? { reason: r.error.reason } : {}),
          },
        },
  );
  return {
    results: rows,
    added: rows.filter((r) => r.http_status === 201).length,
    failed: rows.filter((r) => r.http_status >= 400).length,
  };
}

const askedOf = (item: AdditionItem): Record<string, string> => ({ ...item });
