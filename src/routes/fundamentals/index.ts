import { createApi } from "../openapi";
import { registerGetDeepFundamentals } from "./get-deep";
import { registerGetRenderedFundamentals } from "./get-rendered";
import { registerLegacyFinancials } from "./legacy-financials";

export const fundamentalsApi = createApi();
registerGetRenderedFundamentals(fundamentalsApi);
registerGetDeepFundamentals(fundamentalsApi);
registerLegacyFinancials(fundamentalsApi);
