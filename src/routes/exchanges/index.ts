import { createApi } from "../openapi";
import { registerExchanges } from "./routes";

export const exchangesApi = createApi();
registerExchanges(exchangesApi);
