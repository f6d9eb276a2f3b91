CREATE TABLE "etf_details" (
	"asset_id" integer NOT NULL,
	"fetch_date" date NOT NULL,
	"symbol" text NOT NULL,
	"details" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "etf_details_asset_id_fetch_date_pk" PRIMARY KEY("asset_id","fetch_date")
);
--> statement-breakpoint
ALTER TABLE "etf_details" ADD CONSTRAINT "etf_details_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;