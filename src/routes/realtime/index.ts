import { createApi } from "../openapi";
import { registerGetQuote } from "./get-quote";
import { registerRealtimeStatus } from "./get-status";
import { registerListQuotes } from "./list-quotes";
import { registerSubscribe } from "./subscribe";
import { registerTicket } from "./ticket";
import { registerUnsubscribe } from "./unsubscribe";

export const realtimeApi = createApi();
registerGetQuote(realtimeApi);
registerListQuotes(realtimeApi);
registerSubscribe(realtimeApi);
registerUnsubscribe(realtimeApi);
registerRealtimeStatus(realtimeApi);
registerTicket(realtimeApi);
