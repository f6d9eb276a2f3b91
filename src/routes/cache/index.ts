import { createApi } from "../openapi";
import { registerClearCache } from "./clear";
import { registerGetCacheStats } from "./get-stats";

export const cacheApi = createApi();
registerGetCacheStats(cacheApi);
registerClearCache(cacheApi);
