import { createApi } from "../openapi";
import { registerGetExchange } from "./get";
import { registerListExchanges } from "./list";

export const exchangesApi = createApi();
registerListExchanges(exchangesApi);
registerGetExchange(exchangesApi);
