import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { refreshNews } from "./get-news";

/** Articles one refresh asks each provider for. */
const REFRESH_LIMIT = 20;

/** POST /news/{ticker}/refresh's work: the providers' latest stored, then the cached answers that predate it dropped. */
export async function refreshStoredNews(ctx: Context, ticker: string): Promise<void> {
  await refreshNews(ctx, ticker, REFRESH_LIMIT);
  await ctx.cache.deletePattern(cacheKeys.news(ticker, "*"));
}
