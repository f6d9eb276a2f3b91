import type { Row } from "../../domain/workspace/tables";

export function articleRow(a: {
  published_at: string;
  title: string;
  source: string;
  provider: string;
  language: string | null;
  url: string;
  related_tickers: string[];
}): Row {
  return {
    published_at: a.published_at,
    title: a.title,
    source: a.source,
    provider: a.provider,
    language: a.language,
    url: a.url,
    tickers: a.related_tickers.join(", "),
  };
}
