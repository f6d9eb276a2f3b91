import { createApi } from "../openapi";
import { registerRealtimeStatus } from "./get-status";
import { registerQuotes } from "./quote";
import { registerSubscribe } from "./subscribe";
import { registerUnsubscribe } from "./unsubscribe";

export const realtimeApi = createApi();
registerQuotes(realtimeApi);
registerSubscribe(realtimeApi);
registerUnsubscribe(realtimeApi);
registerRealtimeStatus(realtimeApi);
