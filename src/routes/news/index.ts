import { createApi } from "../openapi";
import { registerGetNews } from "./get";
import { registerGetNewsFeed } from "./get-feed";
import { registerGetNewsStats } from "./get-stats";
import { registerRefreshNews } from "./refresh";

export const newsApi = createApi();
// /news/feed and /news/stats before /news/{ticker}: "feed" is a valid ticker too.
registerGetNewsFeed(newsApi);
registerGetNewsStats(newsApi);
registerGetNews(newsApi);
registerRefreshNews(newsApi);
