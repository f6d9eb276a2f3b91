import { createApi } from "../openapi";
import { registerGetTickerHistory } from "./get-ticker-history";

export const historyApi = createApi();
registerGetTickerHistory(historyApi);
