-- Leases of different kinds of work on one listing (price ingestion, insider filings) are kept apart.
ALTER TABLE "ingest_leases" ADD COLUMN "scope" text DEFAULT 'eod' NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest_leases" DROP CONSTRAINT "ingest_leases_pkey";--> statement-breakpoint
ALTER TABLE "ingest_leases" ADD CONSTRAINT "ingest_leases_scope_listing_id_pk" PRIMARY KEY("scope","listing_id");
