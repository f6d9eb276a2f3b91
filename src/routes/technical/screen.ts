import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { OPERATORS, type Operator } from "../../domain/screen-query";
import { SYNC_SCREEN_MAX_BARS } from "../../domain/screen-runs";
import { screen } from "../../services/technical/screen";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { intParam, QueuedScreenSchema, ResolutionParam, ScreenResultSchema } from "./schema";

/** The screener's parameters (the workspace's screener widget takes the same). */
export const ScreenQuery = {
  indicator: z.string().max(32).default("rsi"),
  operator: z.enum(Object.keys(OPERATORS) as [Operator, ...Operator[]]).default("lt"),
  value: z.coerce.number().refine(Number.isFinite, "value must be a finite number").default(30),
  resolution: ResolutionParam,
  period: intParam(1, 1000).default(14),
  limit: intParam(1, 1000).default(50),
  mode: z.enum(["auto", "queued"]).default("auto").openapi({
    description:
      "`queued` answers from the day's queued run of a length no snapshot holds, even when it could be answered at once",
  }),
};

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/screen",
    "x-mcp-tool": "screen_instruments",
    "x-access": "any",
    tags: ["Technical indicators"],
    summary: "Catalogue instruments whose last indicator value meets a condition (cached 15 minutes)",
    description: `Declared indicators and lengths are answered from snapshots. Any other is computed from the bars: at once when the screen reads at most ${SYNC_SCREEN_MAX_BARS.toLocaleString("en-US")} daily bars (instruments × the bars its last value needs), else by a run queued for the day (202 with the run; ask again or poll it; once finished, every threshold is answered from it until the day ends).`,
    security: keyed,
    // A queued screen records its run (and its values, in the background).
    "x-writes": true,
    request: {
      // A parameter it does not take (`and=`, a misspelt `operater=`) is a 400 naming it, never ignored.
      query: z.object(ScreenQuery).strict(),
    },
    responses: {
      200: {
        description: "The matches, most extreme first",
        content: { "application/json": { schema: ScreenResultSchema } },
      },
      202: {
        description: "The screen's run of the day is being computed: ask again, or poll the run",
        content: { "application/json": { schema: QueuedScreenSchema } },
      },
    },
  }),
);

/** Seconds a client waits before asking again for a running screen. */
export const RETRY_AFTER_SECONDS = 5;

export function registerScreen(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const answer = await screen({ ctx: c.get("deps"), input: c.req.valid("query") });
    if ("status" in answer) {
      c.header("Retry-After", String(RETRY_AFTER_SECONDS));
      return c.json(answer, 202);
    }
    return c.json(answer, 200);
  });
}
