import { createApi } from "../openapi";
import { registerBatch } from "./batch";
import { registerGetChart } from "./chart";
import { registerGetIndicator } from "./get";
import { registerGetScreenRun } from "./get-screen-run";
import { registerListIndicators } from "./list";
import { registerGetMulti } from "./multi";
import { registerScreen } from "./screen";
import { registerScreenConditions } from "./screen-conditions";

export const technicalApi = createApi();
// The fixed paths first: /technical/list and /technical/screen(/conditions) must not be taken for tickers.
registerListIndicators(technicalApi);
registerScreen(technicalApi);
registerGetScreenRun(technicalApi);
registerScreenConditions(technicalApi);
registerBatch(technicalApi);
registerGetIndicator(technicalApi);
registerGetMulti(technicalApi);
registerGetChart(technicalApi);
