import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { APPS } from "../../data/workspace-apps";
import type { AppEnv } from "../env";
import { withErrors } from "../openapi";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/apps.json",
    "x-access": "public",
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

export function registerGetApps(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, (c) => c.json(APPS as unknown as Record<string, unknown>[], 200));
}
