import { createApi } from "../openapi";
import { registerGetHealth } from "./get";
import { registerGetStats } from "./stats";

export const healthApi = createApi();
registerGetHealth(healthApi);
registerGetStats(healthApi);
