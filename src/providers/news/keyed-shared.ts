import type { NewsArticle } from "../../domain/news/article";
import { detectLanguage } from "../../domain/news/language";

/** What the keyed providers (each not asked without its key) share. Their keys never appear in a failure. */

export const keep = (a: NewsArticle | null): a is NewsArticle => a !== null;
export const detected = (title: string, summary: string) => detectLanguage(`${title}. ${summary}`);
