import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import type { ImportItem } from "../../domain/catalogue-import";

/** A bulk import (POST /assets/import): its lines are worked through the `catalogue-import` queue. */
export const catalogueImports = pgTable(
  "catalogue_imports",
  {
    id: serial("id").primaryKey(),
    lines: integer("lines").notNull(),
    /** Whether each added instrument's prices are ingested at once (paced), not at the next refresh run. */
    ingest: boolean("ingest").notNull().default(false),
    /** SHA-256 of its lines and `ingest`: the same import asked again while it runs is that import. */
    digest: text("digest").notNull(),
    /** The kind of key that asked for it. */
    requestedBy: text("requested_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("catalogue_imports_digest_idx").on(t.digest)],
);

/**
 * One line of an import and what it came to: `queued` until a consumer settles it as `added`,
 * `known` or `refused` (with why); `failed` when the providers failed on every attempt. Settled
 * lines are never worked again, so a consumer that stops loses nothing done and repeats nothing.
 */
export const catalogueImportLines = pgTable(
  "catalogue_import_lines",
  {
    importId: integer("import_id")
      .notNull()
      .references(() => catalogueImports.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    asked: text("asked").notNull(),
    item: jsonb("item").$type<ImportItem>(),
    outcome: text("outcome").$type<ImportOutcome>().notNull(),
    reason: text("reason"),
    isin: text("isin"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.line] }),
    index("catalogue_import_lines_queued_idx").on(t.outcome, t.updatedAt),
    // A settle asks whether another line of the import already counts its instrument as added.
    index("catalogue_import_lines_added_idx").on(t.importId, t.isin).where(sql`${t.outcome} = 'added'`),
  ],
);

export type ImportOutcome = "queued" | "added" | "known" | "refused" | "failed";
