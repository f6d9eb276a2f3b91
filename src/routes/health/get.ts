import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getHealth } from "../../services/health/get-health";
import type { AppEnv } from "../env";
import { withErrors } from "../openapi";
import { HealthSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health",
    tags: ["Monitoring"],
    summary: "Service health (public)",
    responses: {
      200: { description: "Health of the service", content: { "application/json": { schema: HealthSchema } } },
    },
  }),
);

export function registerGetHealth(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(
      await getHealth({
        ctx: c.get("deps"),
        background: (work) => {
          try {
            c.executionCtx.waitUntil(work);
          } catch {
            // No execution context (app.request in a plain unit test): the work settles on its own.
          }
        },
      }),
      200,
    ),
  );
}
