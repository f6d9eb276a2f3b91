CREATE TABLE "insider_filings" (
	"accession" text PRIMARY KEY NOT NULL,
	"issuer_cik" integer NOT NULL,
	"form" text NOT NULL,
	"filing_date" date NOT NULL,
	"period_of_report" date,
	"owner_cik" text,
	"filing_url" text NOT NULL,
	"footnotes" jsonb NOT NULL,
	"superseded_by" text,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insider_transactions" (
	"accession" text NOT NULL,
	"line" integer NOT NULL,
	"issuer_cik" integer NOT NULL,
	"owner_cik" text,
	"owner_name" text NOT NULL,
	"is_director" boolean NOT NULL,
	"is_officer" boolean NOT NULL,
	"officer_title" text,
	"is_ten_percent_owner" boolean NOT NULL,
	"is_other" boolean NOT NULL,
	"kind" text NOT NULL,
	"security_title" text,
	"transaction_date" date,
	"code" text NOT NULL,
	"shares" numeric(30, 8),
	"price" numeric(30, 8),
	"acquired_disposed" text,
	"shares_owned_after" numeric(30, 8),
	"ownership" text,
	"nature_of_ownership" text,
	"conversion_or_exercise_price" numeric(30, 8),
	"exercise_date" date,
	"expiration_date" date,
	"underlying_security_title" text,
	"underlying_shares" numeric(30, 8),
	"footnote_ids" jsonb NOT NULL,
	CONSTRAINT "insider_transactions_accession_line_pk" PRIMARY KEY("accession","line")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "sec_cik" integer;--> statement-breakpoint
ALTER TABLE "insider_transactions" ADD CONSTRAINT "insider_transactions_accession_insider_filings_accession_fk" FOREIGN KEY ("accession") REFERENCES "public"."insider_filings"("accession") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insider_filings_issuer_idx" ON "insider_filings" USING btree ("issuer_cik","filing_date");--> statement-breakpoint
CREATE INDEX "insider_transactions_issuer_date_idx" ON "insider_transactions" USING btree ("issuer_cik","transaction_date");