import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import type { AdditionVia, FieldSources } from "../../domain/catalogue-additions";

/** One row per instrument, identified by its ISIN. */
export const assets = pgTable(
  "assets",
  {
    id: serial("id").primaryKey(),
    isin: text("isin").notNull().unique(),
    name: text("name").notNull(),
    quoteType: text("quote_type").notNull(),
    sector: text("sector"),
    industry: text("industry"),
    country: text("country"),
    displayName: text("display_name"),
    officialSymbol: text("official_symbol"),
    logoPath: text("logo_path"),
    irWebsite: text("ir_website"),
    longBusinessSummary: text("long_business_summary"),
    /** The SEC registrant's CIK (US issuers), once EDGAR has named it. */
    secCik: integer("sec_cik"),
    /** When the weekly earnings refresh last asked the delayed provider about this instrument's reports. */
    earningsCheckedAt: timestamp("earnings_checked_at", { withTimezone: true }),
    /** How the instrument joined the catalogue: the seed import, an explicit POST /assets, a read that discovered it, a bulk import. */
    addedVia: text("added_via").$type<AdditionVia>().notNull().default("seed"),
    /** The kind of key whose request added it (null for the seed import). */
    addedByKey: text("added_by_key"),
    /**
     * The bulk import that added it (`catalogue_imports.id`, no foreign key: a pruned import leaves
     * the number): a redelivered line whose instrument its first delivery stored counts as added.
     */
    addedByImport: integer("added_by_import"),
    /** Where each stored field was read (name, quote type, sector, industry, each listing). */
    fieldSources: jsonb("field_sources").$type<FieldSources>(),
    /** When DELETE /assets deactivated its listings; null while it is in the catalogue. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // GET /search: a name's prefix as a range of the lowered names (pattern order, whatever the
    // database's collation): a tenth of a millisecond where the trigram index took milliseconds.
    index("assets_name_prefix_idx").on(sql`lower(${t.name}) text_pattern_ops`),
    // GET /search: a name's near misses (pg_trgm, created by migration 0014).
    index("assets_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    // Its near misses nearest first (`<<->`), when a word is near too many names to rank them all:
    // only GiST orders by trigram distance. Over lower(name) (trigrams ignore case) so that the
    // planner keeps it for that ordering and the GIN index for the rest; a 64-byte signature (the
    // default is 12) tells short names apart.
    index("assets_name_lower_trgm_gist_idx").using("gist", sql`lower(${t.name}) gist_trgm_ops(siglen=64)`),
    // The discoveries' daily budget counts today's.
    index("assets_added_idx").on(t.addedVia, t.createdAt),
  ],
);
