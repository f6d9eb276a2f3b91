import { index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { assets } from "./assets";

export const newsArticles = pgTable(
  "news_articles",
  {
    id: serial("id").primaryKey(),
    /** Normalised URL (lowercase, no utm_*, fragment or trailing slash): the de-duplication key. */
    urlKey: text("url_key").notNull().unique(),
    url: text("url").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull().default(""),
    source: text("source").notNull(),
    provider: text("provider").notNull(),
    author: text("author"),
    language: text("language"),
    imageUrl: text("image_url"),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    relatedTickers: text("related_tickers").array().notNull().default([]),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("news_published_idx").on(t.publishedAt)],
);

export const newsArticleAssets = pgTable(
  "news_article_assets",
  {
    articleId: integer("article_id")
      .notNull()
      .references(() => newsArticles.id, { onDelete: "cascade" }),
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.assetId] }), index("news_article_assets_asset_idx").on(t.assetId)],
);
