CREATE TABLE "screen_run_shares" (
	"run_id" integer NOT NULL,
	"share" integer NOT NULL,
	"instruments" integer NOT NULL,
	"skipped" integer NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	CONSTRAINT "screen_run_shares_run_id_share_pk" PRIMARY KEY("run_id","share")
);
--> statement-breakpoint
CREATE TABLE "screen_run_values" (
	"run_id" integer NOT NULL,
	"asset_id" integer NOT NULL,
	"listing_id" integer NOT NULL,
	"value" double precision NOT NULL,
	"as_of" date NOT NULL,
	CONSTRAINT "screen_run_values_run_id_asset_id_pk" PRIMARY KEY("run_id","asset_id")
);
--> statement-breakpoint
CREATE TABLE "screen_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"indicator" text NOT NULL,
	"params" text NOT NULL,
	"resolution" text NOT NULL,
	"day" date NOT NULL,
	"shares" integer NOT NULL,
	"requested_by" text,
	"started_at" timestamp with time zone NOT NULL,
	"resent_at" timestamp with time zone,
	CONSTRAINT "screen_runs_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "screen_run_shares" ADD CONSTRAINT "screen_run_shares_run_id_screen_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."screen_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_run_values" ADD CONSTRAINT "screen_run_values_run_id_screen_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."screen_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_run_values" ADD CONSTRAINT "screen_run_values_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;