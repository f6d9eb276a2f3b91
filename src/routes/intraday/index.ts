import { createApi } from "../openapi";
import { registerIntraday } from "./routes";

export const intradayApi = createApi();
registerIntraday(intradayApi);
