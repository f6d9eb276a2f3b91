/** A news article as the service answers it (spec "News article"). */
export interface NewsArticle {
  title: string;
  summary: string;
  url: string;
  /** The publisher (Reuters, Les Echos ...). */
  source: string;
  /** The provider it was read from (news provider identifier). */
  provider: string;
  author: string | null;
  /** ISO 639-1 code; null when neither the provider nor the detector could tell. */
  language: string | null;
  image_url: string | null;
  /** ISO 8601 UTC. */
  published_at: string;
  related_tickers: string[];
}
