ALTER TABLE "usage_logs" ADD COLUMN "entry_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_logs_entry_uq" ON "usage_logs" USING btree ("entry_id");