-- GET /search: trigram indexes answer a name's prefix (ILIKE 'q%') and its near misses (q <% name)
-- from one index. pg_trgm ships with Postgres, Neon and PGlite (loaded by tools/db/embedded-postgres).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "assets_name_trgm_idx" ON "assets" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
-- A provider symbol typed as such (MC.PA, RACE.MI) names its listing as exactly as its ticker does.
CREATE INDEX IF NOT EXISTS "listings_delayed_symbol_idx" ON "listings" ("delayed_symbol");
