CREATE TABLE "fx_coverage" (
	"currency" text NOT NULL,
	"year" integer NOT NULL,
	"since" date NOT NULL,
	"through" date NOT NULL,
	"stored_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fx_coverage_currency_year_pk" PRIMARY KEY("currency","year")
);
--> statement-breakpoint
CREATE TABLE "fx_rates" (
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"rate" numeric NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fx_rates_currency_day_pk" PRIMARY KEY("currency","day")
);
