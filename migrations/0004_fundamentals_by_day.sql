-- Nothing wrote these two tables before this version; they are emptied so that the new NOT NULL
-- columns need no backfill.
DELETE FROM "fundamental_snapshots";--> statement-breakpoint
DELETE FROM "validation_results";--> statement-breakpoint
ALTER TABLE "fundamental_snapshots" DROP CONSTRAINT "fundamental_snapshots_pkey";--> statement-breakpoint
ALTER TABLE "fundamental_snapshots" ADD COLUMN "fetch_date" date NOT NULL;--> statement-breakpoint
ALTER TABLE "fundamental_snapshots" ADD COLUMN "financial_currency" text;--> statement-breakpoint
ALTER TABLE "fundamental_snapshots" ADD COLUMN "profile" jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "fundamental_snapshots" ADD CONSTRAINT "fundamental_snapshots_asset_id_fetch_date_pk" PRIMARY KEY("asset_id","fetch_date");--> statement-breakpoint
ALTER TABLE "validation_results" ALTER COLUMN "ticker" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "validation_results" ADD COLUMN "validated_on" date NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "validation_results_day_uq" ON "validation_results" USING btree ("provider_name","ticker","field","validated_on");
