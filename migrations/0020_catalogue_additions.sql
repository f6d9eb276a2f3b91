CREATE TABLE "catalogue_addition_budget" (
	"key_fingerprint" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"spent" integer NOT NULL,
	CONSTRAINT "catalogue_addition_budget_key_fingerprint_minute_pk" PRIMARY KEY("key_fingerprint","minute")
);
--> statement-breakpoint
CREATE TABLE "catalogue_misses" (
	"query" text PRIMARY KEY NOT NULL,
	"status" integer NOT NULL,
	"reason" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogue_import_lines" (
	"import_id" integer NOT NULL,
	"line" integer NOT NULL,
	"asked" text NOT NULL,
	"item" jsonb,
	"outcome" text NOT NULL,
	"reason" text,
	"isin" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "catalogue_import_lines_import_id_line_pk" PRIMARY KEY("import_id","line")
);
--> statement-breakpoint
CREATE TABLE "catalogue_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"lines" integer NOT NULL,
	"ingest" boolean DEFAULT false NOT NULL,
	"digest" text NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "added_via" text DEFAULT 'seed' NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "added_by_key" text;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "field_sources" jsonb;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "catalogue_import_lines" ADD CONSTRAINT "catalogue_import_lines_import_id_catalogue_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."catalogue_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_import_lines_queued_idx" ON "catalogue_import_lines" USING btree ("outcome","updated_at");--> statement-breakpoint
CREATE INDEX "catalogue_imports_digest_idx" ON "catalogue_imports" USING btree ("digest");