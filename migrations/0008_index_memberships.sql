CREATE TABLE "index_members" (
	"index_code" text NOT NULL,
	"asset_id" integer NOT NULL,
	"listing_id" integer,
	"weight" numeric(12, 8),
	CONSTRAINT "index_members_index_code_asset_id_pk" PRIMARY KEY("index_code","asset_id")
);
--> statement-breakpoint
CREATE TABLE "market_indices" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"symbol" text NOT NULL,
	"aliases" jsonb NOT NULL,
	"as_of" date NOT NULL,
	"source" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "index_members" ADD CONSTRAINT "index_members_index_code_market_indices_code_fk" FOREIGN KEY ("index_code") REFERENCES "public"."market_indices"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "index_members" ADD CONSTRAINT "index_members_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "index_members" ADD CONSTRAINT "index_members_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;