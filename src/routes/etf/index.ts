import { createApi } from "../openapi";
import { registerGetEtfDetails } from "./get-details";

export const etfApi = createApi();
registerGetEtfDetails(etfApi);
