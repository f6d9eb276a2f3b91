import { createApi } from "../openapi";
import { registerGetDividends } from "./get-dividends";
import { registerGetSplits } from "./get-splits";

export const corporateActionsApi = createApi();
registerGetDividends(corporateActionsApi);
registerGetSplits(corporateActionsApi);
