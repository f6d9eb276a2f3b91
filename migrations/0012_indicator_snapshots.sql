CREATE TABLE "indicator_snapshots" (
	"listing_id" integer NOT NULL,
	"indicator" text NOT NULL,
	"params" text NOT NULL,
	"window_bars" integer NOT NULL,
	"value" double precision,
	"computable" boolean NOT NULL,
	"as_of" date NOT NULL,
	"window_from" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "indicator_snapshots_listing_id_indicator_params_pk" PRIMARY KEY("listing_id","indicator","params")
);
--> statement-breakpoint
ALTER TABLE "indicator_snapshots" ADD CONSTRAINT "indicator_snapshots_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "indicator_snapshots_screen_idx" ON "indicator_snapshots" USING btree ("indicator","params","window_bars","value");