CREATE TABLE "ingest_leases" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" jsonb
);
--> statement-breakpoint
ALTER TABLE "ingest_leases" ADD CONSTRAINT "ingest_leases_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;