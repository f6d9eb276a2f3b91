CREATE TABLE "price_findings" (
	"listing_id" integer NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	CONSTRAINT "price_findings_listing_id_date_kind_pk" PRIMARY KEY("listing_id","date","kind")
);
--> statement-breakpoint
ALTER TABLE "adjustment_checks" ADD COLUMN "precision" text DEFAULT 'price_hint' NOT NULL;--> statement-breakpoint
ALTER TABLE "realtime_subscriptions" ADD COLUMN "out_of_session_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "realtime_subscriptions" ADD COLUMN "last_out_of_session_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "price_findings" ADD CONSTRAINT "price_findings_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_findings_kind_idx" ON "price_findings" USING btree ("kind");