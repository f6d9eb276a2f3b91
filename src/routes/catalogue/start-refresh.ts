import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { startRefresh } from "../../services/catalogue/refresh/start-refresh";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { RefreshRequestSchema, RefreshStartSchema, toRefreshRun } from "./refresh-schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/catalogue/refresh",
    "x-access": "full",
    tags: ["Assets and listings"],
    description:
      "Starts a refresh run now: every active listing of the venues named in the optional body `{exchanges: [...]}` (catalogue codes; every venue when absent) is queued and brought up to its venue's last closed session, with provider requests paced across all consumers. Only one run exists at a time: while one is going nothing new starts and the answer is that run with `started: false`. Runs also start on their own half an hour after each venue's close. Needs a full-access key; 503 when the refresh queue is unavailable.",
    summary:
      "Starts a refresh of the catalogue's daily bars now, or answers the one running (full-access key; one run at a time)",
    security: keyed,
    request: {
      body: { required: false, content: { "application/json": { schema: RefreshRequestSchema } } },
    },
    responses: {
      200: {
        description: "The run started, or the run already going (`started: false`)",
        content: { "application/json": { schema: RefreshStartSchema } },
      },
    },
  }),
);

export function registerStartRefresh(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = c.req.valid("json") as { exchanges?: string[] } | undefined;
    const r = await startRefresh({
      ctx: c.get("deps"),
      input: { venues: body?.exchanges ?? null },
    });
    return c.json({ started: r.started, run: toRefreshRun(r.run) }, 200);
  });
}
