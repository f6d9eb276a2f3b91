import { createApi } from "../openapi";
import { registerAlerts } from "./alerts";
import { registerCanary } from "./canary";
import { registerGetHealth } from "./get";
import { registerProviderHealth } from "./providers";
import { registerGetStats } from "./stats";

export const healthApi = createApi();
registerGetHealth(healthApi);
registerGetStats(healthApi);
registerAlerts(healthApi);
registerProviderHealth(healthApi);
registerCanary(healthApi);
