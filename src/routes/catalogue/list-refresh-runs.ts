import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listRefreshRuns } from "../../services/catalogue/refresh/start-refresh";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { RefreshRunsSchema, toRefreshRun } from "./refresh-schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/catalogue/refresh",
    "x-access": "any",
    tags: ["Assets and listings"],
    description:
      "The latest runs of the catalogue refresh (which stores each active listing's missing daily bars after its venue's close), newest first: trigger (`cron`, `request` or `first_run`), start, end and duration, the session each venue was brought to, the venues left out and why, listing counts (queued, pending, refreshed, unchanged, failed) with each failure's reason and attempts, bars written and provider requests. `running` says whether a run is in progress; `limit` is 1 to 50 (default 10). Any key.",
    summary: "The latest refreshes of the catalogue's daily bars, newest first, with their counts and failures",
    security: keyed,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(50).default(10).openapi({ example: 10 }),
      }),
    },
    responses: {
      200: { description: "The latest runs", content: { "application/json": { schema: RefreshRunsSchema } } },
    },
  }),
);

export function registerListRefreshRuns(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const runs = await listRefreshRuns({ ctx: c.get("deps"), input: { limit: c.req.valid("query").limit } });
    return c.json(
      { running: runs.some((r) => r.finishedAt === null), count: runs.length, runs: runs.map(toRefreshRun) },
      200,
    );
  });
}
