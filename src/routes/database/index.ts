import { createApi } from "../openapi";
import { registerCleanup } from "./cleanup";
import { registerGetDatabaseStats } from "./get-stats";
import { registerGetStoredTicker } from "./get-ticker";
import { registerListStoredTickers } from "./list-tickers";

export const databaseApi = createApi();
registerGetDatabaseStats(databaseApi);
registerListStoredTickers(databaseApi);
registerGetStoredTicker(databaseApi);
registerCleanup(databaseApi);
