import { createApi } from "../openapi";
import { registerBatch } from "./batch";
import { registerGetChart } from "./chart";
import { registerGetIndicator } from "./get";
import { registerListIndicators } from "./list";
import { registerGetMulti } from "./multi";
import { registerScreen } from "./screen";

export const technicalApi = createApi();
// The fixed paths first: /technical/list and /technical/screen must not be taken for tickers.
registerListIndicators(technicalApi);
registerScreen(technicalApi);
registerBatch(technicalApi);
registerGetIndicator(technicalApi);
registerGetMulti(technicalApi);
registerGetChart(technicalApi);
