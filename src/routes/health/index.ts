import { createApi } from "../openapi";
import { registerGetCanaryHistory } from "./canary-history";
import { registerGetHealth } from "./get";
import { registerGetProviderHealth } from "./get-provider";
import { registerListAlerts } from "./list-alerts";
import { registerListProviderHealth } from "./list-providers";
import { registerResolveAlert } from "./resolve-alert";
import { registerRunCanary } from "./run-canary";
import { registerGetStats } from "./stats";

export const healthApi = createApi();
registerGetHealth(healthApi);
registerGetStats(healthApi);
registerListAlerts(healthApi);
registerResolveAlert(healthApi);
registerListProviderHealth(healthApi);
registerGetProviderHealth(healthApi);
registerGetCanaryHistory(healthApi);
registerRunCanary(healthApi);
