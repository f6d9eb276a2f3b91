import { z } from "@hono/zod-openapi";
import { MAX_IMPORT_LINES } from "../../domain/catalogue-import";
import { textParam } from "../openapi";

/** Another share of the sandbox's world (Nasdaq): the documented example of an import. */
export const EXAMPLE_IMPORT_ISIN = "USW000000027";

export const OUTCOMES = ["queued", "added", "known", "refused", "failed"] as const;

export const ImportRequestSchema = z
  .object({
    items: z
      .array(
        z.object({
          isin: textParam(64).optional(),
          symbol: textParam(64).optional(),
          exchange: textParam(16).optional(),
        }),
      )
      .min(1)
      .max(MAX_IMPORT_LINES),
    ingest: z.boolean().optional(),
  })
  .openapi("ImportRequest", { example: { items: [{ isin: EXAMPLE_IMPORT_ISIN }] } });

export const ImportSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(["running", "finished"]),
    lines: z.number().int(),
    ingest: z.boolean(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    counts: z.object(
      Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int()])) as Record<(typeof OUTCOMES)[number], z.ZodNumber>,
    ),
    page: z.object({ offset: z.number().int(), limit: z.number().int(), outcome: z.enum(OUTCOMES).nullable() }),
    line_results: z.array(
      z.object({
        line: z.number().int(),
        asked: z.string(),
        outcome: z.enum(OUTCOMES),
        reason: z.string().nullable(),
        isin: z.string().nullable(),
      }),
    ),
  })
  .openapi("Import");
