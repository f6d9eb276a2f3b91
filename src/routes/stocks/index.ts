import { createApi } from "../openapi";
import { registerListStocks } from "./list";

export const stocksApi = createApi();
registerListStocks(stocksApi);
