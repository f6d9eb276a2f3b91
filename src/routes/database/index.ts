import { createApi } from "../openapi";
import { registerCleanup } from "./cleanup";
import { registerGetDatabaseStats } from "./get-stats";
import { registerStoredTickers } from "./stored-tickers";

export const databaseApi = createApi();
registerGetDatabaseStats(databaseApi);
registerStoredTickers(databaseApi);
registerCleanup(databaseApi);
