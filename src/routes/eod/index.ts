import { createApi } from "../openapi";
import { registerGetEod } from "./get-eod";
import { registerIngest } from "./ingest";

export const eodApi = createApi();
registerGetEod(eodApi);
registerIngest(eodApi);
