CREATE TABLE "intraday_bars" (
	"listing_id" integer NOT NULL,
	"interval" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"open" numeric(20, 8) NOT NULL,
	"high" numeric(20, 8) NOT NULL,
	"low" numeric(20, 8) NOT NULL,
	"close" numeric(20, 8) NOT NULL,
	"volume" bigint DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intraday_bars_listing_id_interval_start_pk" PRIMARY KEY("listing_id","interval","start")
);
--> statement-breakpoint
CREATE TABLE "intraday_coverage" (
	"listing_id" integer NOT NULL,
	"interval" text NOT NULL,
	"day" date NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "intraday_coverage_listing_id_interval_day_pk" PRIMARY KEY("listing_id","interval","day")
);
--> statement-breakpoint
ALTER TABLE "intraday_bars" ADD CONSTRAINT "intraday_bars_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intraday_coverage" ADD CONSTRAINT "intraday_coverage_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;