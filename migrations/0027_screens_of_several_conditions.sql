CREATE TABLE "screen_figures" (
	"asset_id" integer NOT NULL,
	"currency" text NOT NULL,
	"market_cap" double precision,
	"pe_ratio" double precision,
	"dividend_yield" double precision,
	"as_of" date NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "screen_figures_asset_id_currency_pk" PRIMARY KEY("asset_id","currency")
);
--> statement-breakpoint
CREATE TABLE "screen_rows" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"asset_id" integer NOT NULL,
	"currency" text,
	"preferred" boolean DEFAULT false NOT NULL,
	"formula" smallint NOT NULL,
	"window_bars" integer NOT NULL,
	"as_of" date NOT NULL,
	"close" double precision NOT NULL,
	"values" double precision[] NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "screen_figures" ADD CONSTRAINT "screen_figures_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_rows" ADD CONSTRAINT "screen_rows_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The figures of each instrument's latest fundamentals snapshot in each currency (a snapshot of one
-- day per symbol: the latest fetched wins), as figuresForListing files them: a sub-unit quote
-- (GBp, GBX, ILA, ZAc) under its currency with the market capitalisation unknown.
INSERT INTO "screen_figures" ("asset_id", "currency", "market_cap", "pe_ratio", "dividend_yield", "as_of", "source", "updated_at")
SELECT DISTINCT ON (x."asset_id", x."currency") x."asset_id", x."currency",
       CASE WHEN x."sub_unit" THEN NULL ELSE x."market_cap" END, x."pe_ratio", x."dividend_yield",
       x."fetch_date", x."source", x."fetched_at"
FROM (
  SELECT f."asset_id", f."fetch_date", f."source", f."fetched_at",
         f."currency" IN ('GBp', 'GBX', 'ILA', 'ZAc') AS "sub_unit",
         CASE f."currency" WHEN 'GBp' THEN 'GBP' WHEN 'GBX' THEN 'GBP' WHEN 'ILA' THEN 'ILS' WHEN 'ZAc' THEN 'ZAR' ELSE f."currency" END AS "currency",
         CASE WHEN jsonb_typeof(f."highlights"->'market_cap') = 'number' THEN (f."highlights"->>'market_cap')::float8 END AS "market_cap",
         CASE WHEN jsonb_typeof(f."highlights"->'pe_ratio') = 'number' THEN (f."highlights"->>'pe_ratio')::float8 END AS "pe_ratio",
         CASE WHEN jsonb_typeof(f."highlights"->'dividend_yield') = 'number' THEN (f."highlights"->>'dividend_yield')::float8 END AS "dividend_yield"
  FROM "fundamental_snapshots" f
  WHERE f."currency" IS NOT NULL
) x
WHERE (CASE WHEN x."sub_unit" THEN NULL ELSE x."market_cap" END) IS NOT NULL OR x."pe_ratio" IS NOT NULL OR x."dividend_yield" IS NOT NULL
ORDER BY x."asset_id", x."currency", x."fetch_date" DESC, x."fetched_at" DESC;
--> statement-breakpoint
-- A screen row takes its listing's mark when written, as a snapshot row does.
CREATE FUNCTION screen_row_preferred() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.preferred := coalesce((SELECT l.preferred FROM listings l WHERE l.id = NEW.listing_id), false);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER screen_rows_preferred BEFORE INSERT ON screen_rows
  FOR EACH ROW EXECUTE FUNCTION screen_row_preferred();
--> statement-breakpoint
-- The marking (migration 0022) now also carries the mark to the screen rows.
CREATE OR REPLACE FUNCTION mark_preferred_listings(asset_ids int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The instruments go in as a constant array (EXECUTE of a literal), so that the planner knows how
  -- many there are: a bulk insert of 100,000 listings is then a hash join, not a nested loop over
  -- a table its statistics still believe small.
  EXECUTE format($q$
    WITH ids AS (SELECT DISTINCT x AS asset_id FROM unnest(%1$L::int[]) AS x),
    best AS (
      SELECT DISTINCT ON (c.asset_id) c.asset_id, c.id FROM listings c JOIN ids ON ids.asset_id = c.asset_id
      WHERE c.is_active
      ORDER BY c.asset_id, c.is_primary DESC, c.currency COLLATE "C", c.exchange IS NULL, c.exchange COLLATE "C", c.id
    ), chosen AS (
      SELECT ids.asset_id, coalesce(best.id, 0) AS id FROM ids LEFT JOIN best ON best.asset_id = ids.asset_id
    )
    UPDATE listings l SET preferred = (l.id = chosen.id)
    FROM chosen
    WHERE l.asset_id = chosen.asset_id AND l.preferred <> (l.id = chosen.id)$q$, asset_ids);
  EXECUTE format($q$
    UPDATE indicator_snapshots s SET preferred = l.preferred
    FROM listings l JOIN (SELECT DISTINCT x AS asset_id FROM unnest(%1$L::int[]) AS x) ids ON ids.asset_id = l.asset_id
    WHERE s.listing_id = l.id AND s.preferred <> l.preferred$q$, asset_ids);
  EXECUTE format($q$
    UPDATE screen_rows s SET preferred = l.preferred
    FROM listings l JOIN (SELECT DISTINCT x AS asset_id FROM unnest(%1$L::int[]) AS x) ids ON ids.asset_id = l.asset_id
    WHERE s.listing_id = l.id AND s.preferred <> l.preferred$q$, asset_ids);
END $$;
