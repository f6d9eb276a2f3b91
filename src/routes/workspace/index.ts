import { createApi } from "../openapi";
import { registerChartWidgets } from "./charts";
import { WidgetRoutes } from "./define";
import { registerDiscovery } from "./discovery";
import { registerMetricWidgets } from "./metrics";
import { registerTableWidgets } from "./tables";

/** The analytics workspace's backend: its discovery files and the 19 widget routes (each in two forms where it has a path parameter). */
export const workspaceApi = createApi();
registerDiscovery(workspaceApi);
const widgets = new WidgetRoutes();
registerMetricWidgets(widgets);
registerChartWidgets(widgets);
registerTableWidgets(widgets);
widgets.registerOn(workspaceApi);
