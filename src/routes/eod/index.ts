import { createApi } from "../openapi";
import { registerBulkEod } from "./bulk";
import { registerGetEod } from "./get-eod";
import { registerIngest } from "./ingest";

export const eodApi = createApi();
// The fixed path first: /eod/bulk/{exchange} has two segments after /eod, a ticker one.
registerBulkEod(eodApi);
registerGetEod(eodApi);
registerIngest(eodApi);
