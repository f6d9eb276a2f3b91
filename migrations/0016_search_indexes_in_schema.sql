-- The indexes of migration 0014, now declared in the schema (src/db/schema) so that the schema and
-- its snapshots know them; they exist already wherever 0014 ran.
CREATE INDEX IF NOT EXISTS "assets_name_trgm_idx" ON "assets" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_delayed_symbol_idx" ON "listings" USING btree ("delayed_symbol");
