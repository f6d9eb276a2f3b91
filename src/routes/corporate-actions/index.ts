import { createApi } from "../openapi";
import { registerCorporateActions } from "./routes";

export const corporateActionsApi = createApi();
registerCorporateActions(corporateActionsApi);
