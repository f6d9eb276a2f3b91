ALTER TABLE "indicator_snapshots" ADD COLUMN "preferred" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "preferred" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "indicator_snapshots_preferred_idx" ON "indicator_snapshots" USING btree ("indicator","params","window_bars","value") WHERE "indicator_snapshots"."preferred";--> statement-breakpoint
CREATE INDEX "listings_preferred_idx" ON "listings" USING btree ("asset_id") WHERE "listings"."preferred";--> statement-breakpoint
-- The preferred listing of each instrument is kept here, by the database, so that every statement
-- that changes listings keeps it (the seed, additions, removals, tests, tools) and a screen over
-- 100,000 instruments reads one index instead of ordering every listing. The rule is the /eod
-- choice (src/domain/listing-choice.ts, compareListings): active, primary first, then currency,
-- then exchange (unknown last), then id, in byte order.
CREATE FUNCTION mark_preferred_listings(asset_ids int[]) RETURNS void LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint
CREATE FUNCTION listings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mark_preferred_listings(ARRAY(SELECT DISTINCT asset_id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only a change the rule reads marks again: the marking's own updates (of `preferred`) end here.
-- EXCEPT rather than a join of the two transition tables, which have no statistics: a bulk update
-- stays a hash of each, never a nested loop of 100,000 by 100,000.
CREATE FUNCTION listings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changed int[];
BEGIN
  changed := ARRAY(
    SELECT asset_id FROM (
      (SELECT id, asset_id, is_active, is_primary, currency, exchange FROM new_rows
       EXCEPT SELECT id, asset_id, is_active, is_primary, currency, exchange FROM old_rows)
      UNION
      (SELECT id, asset_id, is_active, is_primary, currency, exchange FROM old_rows
       EXCEPT SELECT id, asset_id, is_active, is_primary, currency, exchange FROM new_rows)
    ) d GROUP BY asset_id);
  IF cardinality(changed) > 0 THEN
    PERFORM mark_preferred_listings(changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION listings_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mark_preferred_listings(ARRAY(SELECT DISTINCT asset_id FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listings_preferred_inserted AFTER INSERT ON listings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_inserted();
--> statement-breakpoint
CREATE TRIGGER listings_preferred_updated AFTER UPDATE ON listings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_updated();
--> statement-breakpoint
CREATE TRIGGER listings_preferred_deleted AFTER DELETE ON listings
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_deleted();
--> statement-breakpoint
-- A new snapshot row takes its listing's mark.
CREATE FUNCTION indicator_snapshot_preferred() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.preferred := coalesce((SELECT l.preferred FROM listings l WHERE l.id = NEW.listing_id), false);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER indicator_snapshots_preferred BEFORE INSERT ON indicator_snapshots
  FOR EACH ROW EXECUTE FUNCTION indicator_snapshot_preferred();
--> statement-breakpoint
SELECT mark_preferred_listings(ARRAY(SELECT id FROM assets));
