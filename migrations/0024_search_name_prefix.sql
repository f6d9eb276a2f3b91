DROP INDEX "assets_name_idx";--> statement-breakpoint
CREATE INDEX "assets_name_prefix_idx" ON "assets" USING btree (lower("name") text_pattern_ops);