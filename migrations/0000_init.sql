CREATE TABLE "assets" (
	"id" serial PRIMARY KEY NOT NULL,
	"isin" text NOT NULL,
	"name" text NOT NULL,
	"quote_type" text NOT NULL,
	"sector" text,
	"industry" text,
	"country" text,
	"display_name" text,
	"official_symbol" text,
	"logo_path" text,
	"ir_website" text,
	"long_business_summary" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assets_isin_unique" UNIQUE("isin")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" serial PRIMARY KEY NOT NULL,
	"asset_id" integer NOT NULL,
	"ticker" text NOT NULL,
	"exchange" text,
	"currency" text NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"delayed_symbol" text,
	"delayed_symbol_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prices_daily" (
	"listing_id" integer NOT NULL,
	"date" date NOT NULL,
	"open" numeric(20, 8),
	"high" numeric(20, 8),
	"low" numeric(20, 8),
	"close" numeric(20, 8) NOT NULL,
	"adj_close" numeric(20, 8) NOT NULL,
	"volume" bigint DEFAULT 0 NOT NULL,
	"data_source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prices_daily_listing_id_date_pk" PRIMARY KEY("listing_id","date")
);
--> statement-breakpoint
CREATE TABLE "prices_intraday" (
	"listing_id" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"open" numeric(20, 8) NOT NULL,
	"high" numeric(20, 8) NOT NULL,
	"low" numeric(20, 8) NOT NULL,
	"close" numeric(20, 8) NOT NULL,
	"volume" bigint DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prices_intraday_listing_id_minute_pk" PRIMARY KEY("listing_id","minute")
);
--> statement-breakpoint
CREATE TABLE "earnings_history" (
	"asset_id" integer NOT NULL,
	"quarter_end" date NOT NULL,
	"period" text,
	"eps_actual" numeric(30, 8),
	"eps_estimate" numeric(30, 8),
	"eps_difference" numeric(30, 8),
	"surprise_percent" numeric(30, 8),
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "earnings_history_asset_id_quarter_end_pk" PRIMARY KEY("asset_id","quarter_end")
);
--> statement-breakpoint
CREATE TABLE "earnings_trends" (
	"asset_id" integer NOT NULL,
	"period" text NOT NULL,
	"end_date" date,
	"growth" numeric(30, 8),
	"eps_avg" numeric(30, 8),
	"eps_low" numeric(30, 8),
	"eps_high" numeric(30, 8),
	"revenue_avg" numeric(30, 8),
	"analysts" integer,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "earnings_trends_asset_id_period_pk" PRIMARY KEY("asset_id","period")
);
--> statement-breakpoint
CREATE TABLE "financial_statements" (
	"asset_id" integer NOT NULL,
	"statement" text NOT NULL,
	"period_type" text NOT NULL,
	"period_end" date NOT NULL,
	"currency" text,
	"items" jsonb NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "financial_statements_asset_id_statement_period_type_period_end_pk" PRIMARY KEY("asset_id","statement","period_type","period_end")
);
--> statement-breakpoint
CREATE TABLE "fundamental_snapshots" (
	"asset_id" integer PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"currency" text,
	"highlights" jsonb NOT NULL,
	"analyst_ratings" jsonb NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "news_article_assets" (
	"article_id" integer NOT NULL,
	"asset_id" integer NOT NULL,
	CONSTRAINT "news_article_assets_article_id_asset_id_pk" PRIMARY KEY("article_id","asset_id")
);
--> statement-breakpoint
CREATE TABLE "news_articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"url_key" text NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"provider" text NOT NULL,
	"author" text,
	"language" text,
	"image_url" text,
	"published_at" timestamp with time zone NOT NULL,
	"related_tickers" text[] DEFAULT '{}' NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "news_articles_url_key_unique" UNIQUE("url_key")
);
--> statement-breakpoint
CREATE TABLE "macro_rates_cache" (
	"series_id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"value" numeric(12, 8) NOT NULL,
	"unit" text NOT NULL,
	"observation_date" date NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realtime_subscriptions" (
	"ticker" text PRIMARY KEY NOT NULL,
	"listing_id" integer,
	"tv_exchange" text NOT NULL,
	"tv_symbol" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"subscribed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_tick_at" timestamp with time zone,
	"tick_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"severity" text NOT NULL,
	"type" text NOT NULL,
	"provider_name" text NOT NULL,
	"message" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_resolved" boolean DEFAULT false NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution_note" text
);
--> statement-breakpoint
CREATE TABLE "provider_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_name" text NOT NULL,
	"check_type" text NOT NULL,
	"ticker" text,
	"field" text,
	"success" boolean NOT NULL,
	"latency_ms" integer,
	"value" numeric,
	"expected_min" numeric,
	"expected_max" numeric,
	"error" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "validation_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_name" text NOT NULL,
	"ticker" text,
	"field" text NOT NULL,
	"value" numeric,
	"status" text NOT NULL,
	"reason" text,
	"validated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"ticker" text,
	"key_kind" text NOT NULL,
	"status" integer NOT NULL,
	"latency_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prices_daily" ADD CONSTRAINT "prices_daily_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prices_intraday" ADD CONSTRAINT "prices_intraday_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings_history" ADD CONSTRAINT "earnings_history_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings_trends" ADD CONSTRAINT "earnings_trends_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "financial_statements" ADD CONSTRAINT "financial_statements_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fundamental_snapshots" ADD CONSTRAINT "fundamental_snapshots_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news_article_assets" ADD CONSTRAINT "news_article_assets_article_id_news_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."news_articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news_article_assets" ADD CONSTRAINT "news_article_assets_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realtime_subscriptions" ADD CONSTRAINT "realtime_subscriptions_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assets_name_idx" ON "assets" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "listings_ticker_exchange_currency_uq" ON "listings" USING btree ("ticker",coalesce("exchange", ''),"currency");--> statement-breakpoint
CREATE INDEX "listings_asset_idx" ON "listings" USING btree ("asset_id");--> statement-breakpoint
CREATE INDEX "listings_ticker_idx" ON "listings" USING btree ("ticker");--> statement-breakpoint
CREATE INDEX "earnings_trends_asset_idx" ON "earnings_trends" USING btree ("asset_id");--> statement-breakpoint
CREATE INDEX "news_article_assets_asset_idx" ON "news_article_assets" USING btree ("asset_id");--> statement-breakpoint
CREATE INDEX "news_published_idx" ON "news_articles" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "alerts_open_idx" ON "alerts" USING btree ("is_resolved","provider_name");--> statement-breakpoint
CREATE INDEX "provider_checks_provider_time_idx" ON "provider_checks" USING btree ("provider_name","checked_at");--> statement-breakpoint
CREATE INDEX "validation_results_time_idx" ON "validation_results" USING btree ("validated_at");--> statement-breakpoint
CREATE INDEX "usage_logs_created_idx" ON "usage_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "usage_logs_ticker_idx" ON "usage_logs" USING btree ("ticker");