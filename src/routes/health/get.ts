import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getHealth } from "../../services/health/get-health";
import type { AppEnv } from "../env";
import { withErrors } from "../openapi";
import { HealthSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health",
    "x-access": "public",
    tags: ["Monitoring"],
    description:
      "Liveness and readiness in one call, open to anyone without a key. It says whether the service is `ok` or `degraded` (degraded when the cache does not answer or the latest call to some provider failed), whether the delayed provider is usable, which providers could not be loaded, how calls to each provider have gone on the answering instance (including one resting after repeated failures, with `resting_until`), and the lifetime of every cache category. It never queries the database and reuses a view of the cache that may be a few seconds old, so it is cheap to poll; `timestamp` is UTC written without a zone, the shape the spec fixes.",
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
