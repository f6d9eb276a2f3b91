import { createApi } from "../openapi";
import { registerQuotes } from "./quote";
import { registerSubscriptions } from "./subscribe";

export const realtimeApi = createApi();
registerQuotes(realtimeApi);
registerSubscriptions(realtimeApi);
