/**
 * The workspace's discovery files, where the workspace route reads them: the tables live in src/data
 * (workspace-widgets.ts, workspace-apps.ts), their shapes in ./widget-types.
 */
export { APPS } from "../../data/workspace-apps";
export { WIDGETS } from "../../data/workspace-widgets";
export type { App, ColumnDef, Widget, WidgetParam } from "./widget-types";
