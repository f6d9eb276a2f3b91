import { createApi } from "../openapi";
import { registerClearAllCache } from "./clear-all";
import { registerClearTickerCache } from "./clear-ticker";
import { registerGetCacheStats } from "./get-stats";

export const cacheApi = createApi();
registerGetCacheStats(cacheApi);
registerClearAllCache(cacheApi);
registerClearTickerCache(cacheApi);
