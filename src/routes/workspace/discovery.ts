import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { APPS, WIDGETS } from "../../domain/workspace/widgets";
import type { AppEnv } from "../env";
import { withErrors } from "../openapi";

const widgetsRoute = createRoute(
  withErrors({
    method: "get",
    path: "/widgets.json",
    tags: ["Analytics workspace"],
    description:
      "Public discovery file the analytics workspace (OpenBB) reads when this backend is added: the 23 widget definitions (the spec's 19 plus four of the service's own), keyed by widget id, each with its name, category, type, endpoint and parameters. No key needed.",
    summary: "The workspace's widget definitions: an object keyed by widget id (public)",
    responses: {
      200: {
        description: "The 23 widgets: the spec's 19 and four of our own",
        content: { "application/json": { schema: z.record(z.string(), z.record(z.string(), z.unknown())) } },
      },
    },
  }),
);

const appsRoute = createRoute(
  withErrors({
    method: "get",
    path: "/apps.json",
    tags: ["Analytics workspace"],
    description:
      'Public discovery file with the two pre-assembled workspace dashboards, "EU markets" and "Screener and macro", and the widgets each places. No key needed.',
    summary: "Two pre-assembled dashboards: EU markets, and the screener with macro (public)",
    responses: {
      200: {
        description: "The dashboards",
        content: { "application/json": { schema: z.array(z.record(z.string(), z.unknown())) } },
      },
    },
  }),
);

/** GET /widgets.json and /apps.json: what the workspace reads when a user adds the backend. */
export function registerDiscovery(api: OpenAPIHono<AppEnv>) {
  api.openapi(widgetsRoute, (c) => c.json(WIDGETS as unknown as Record<string, Record<string, unknown>>, 200));
  api.openapi(appsRoute, (c) => c.json(APPS as unknown as Record<string, unknown>[], 200));
  return api;
}
