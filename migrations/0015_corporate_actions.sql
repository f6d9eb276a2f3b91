CREATE TABLE "adjustment_checks" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"bars" integer NOT NULL,
	"dividends" integer NOT NULL,
	"splits" integer NOT NULL,
	"mismatches" integer NOT NULL,
	"detail" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dividends" (
	"listing_id" integer NOT NULL,
	"ex_date" date NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dividends_listing_id_ex_date_pk" PRIMARY KEY("listing_id","ex_date")
);
--> statement-breakpoint
CREATE TABLE "splits" (
	"listing_id" integer NOT NULL,
	"date" date NOT NULL,
	"numerator" numeric(20, 8) NOT NULL,
	"denominator" numeric(20, 8) NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "splits_listing_id_date_pk" PRIMARY KEY("listing_id","date")
);
--> statement-breakpoint
ALTER TABLE "adjustment_checks" ADD CONSTRAINT "adjustment_checks_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividends" ADD CONSTRAINT "dividends_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "splits" ADD CONSTRAINT "splits_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;