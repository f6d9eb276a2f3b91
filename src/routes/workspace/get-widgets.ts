import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { WIDGETS } from "../../data/workspace-widgets";
import type { AppEnv } from "../env";
import { withErrors } from "../openapi";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/widgets.json",
    "x-access": "public",
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

export function registerGetWidgets(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, (c) => c.json(WIDGETS as unknown as Record<string, Record<string, unknown>>, 200));
}
