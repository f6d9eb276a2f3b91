CREATE TABLE "catalogue_refresh_items" (
	"run_id" integer NOT NULL,
	"listing_id" integer NOT NULL,
	"outcome" text NOT NULL,
	"session" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"bars_written" integer DEFAULT 0 NOT NULL,
	"provider_requests" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "catalogue_refresh_items_run_id_listing_id_pk" PRIMARY KEY("run_id","listing_id")
);
--> statement-breakpoint
CREATE TABLE "catalogue_refresh_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"sessions" jsonb NOT NULL,
	"skipped" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"queued" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "catalogue_refresh_items" ADD CONSTRAINT "catalogue_refresh_items_run_id_catalogue_refresh_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."catalogue_refresh_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_refresh_items" ADD CONSTRAINT "catalogue_refresh_items_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_refresh_items_outcome_idx" ON "catalogue_refresh_items" USING btree ("run_id","outcome");--> statement-breakpoint
CREATE UNIQUE INDEX "catalogue_refresh_one_running_uq" ON "catalogue_refresh_runs" USING btree ((true)) WHERE "catalogue_refresh_runs"."finished_at" IS NULL;--> statement-breakpoint
CREATE INDEX "catalogue_refresh_runs_started_idx" ON "catalogue_refresh_runs" USING btree ("started_at");