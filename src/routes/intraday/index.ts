import { createApi } from "../openapi";
import { registerGetIntraday } from "./get-intraday";

export const intradayApi = createApi();
registerGetIntraday(intradayApi);
