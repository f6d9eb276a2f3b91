CREATE TABLE "earnings_calendar" (
	"asset_id" integer NOT NULL,
	"period_end" date NOT NULL,
	"report_date" date NOT NULL,
	"report_date_to" date,
	"eps_estimate" numeric(30, 8),
	"eps_low" numeric(30, 8),
	"eps_high" numeric(30, 8),
	"revenue_estimate" numeric(30, 8),
	"revenue_low" numeric(30, 8),
	"revenue_high" numeric(30, 8),
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "earnings_calendar_asset_id_period_end_pk" PRIMARY KEY("asset_id","period_end")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "earnings_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "earnings_calendar" ADD CONSTRAINT "earnings_calendar_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "earnings_calendar_report_date_idx" ON "earnings_calendar" USING btree ("report_date");