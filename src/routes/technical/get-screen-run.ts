import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getScreenRun } from "../../services/technical/screen-runs";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ScreenRunSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/technical/screen/runs/{id}",
      "x-access": "any",
      tags: ["Technical indicators"],
      description:
        "The state of a queued screen run, the run a /technical/screen or /technical/screen/conditions request starts (answering 202) when its computation reads too many bars to answer at once: indicator, parameters, resolution, the UTC day it answers, shares done out of its total, instruments computed and skipped, and start and finish times. Once it has finished, asking the screen again answers from the run for the rest of that day; runs of earlier days are deleted by the nightly retention job. An unknown id is a 404; any key.",
      summary: "A queued screen's run: its shares done, and when it finished",
      security: keyed,
      request: { params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647).openapi({ example: 1 }) }) },
      responses: {
        200: { description: "The run", content: { "application/json": { schema: ScreenRunSchema } } },
      },
    },
    [404],
  ),
);

export function registerGetScreenRun(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await getScreenRun(c.get("deps"), c.req.valid("param").id), 200));
}
