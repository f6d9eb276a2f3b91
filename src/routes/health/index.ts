import { createApi } from "../openapi";
import { registerGetHealth } from "./get";

export const healthApi = createApi();
registerGetHealth(healthApi);
