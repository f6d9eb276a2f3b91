import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { OPERATORS, type Operator, screen } from "../../services/technical/screen";
import { keyed, withErrors } from "../openapi";
import { intParam, ResolutionParam, ScreenResultSchema } from "./schema";

/** The screener's parameters (the workspace's screener widget takes the same). */
export const ScreenQuery = {
  indicator: z.string().max(32).default("rsi"),
  operator: z.enum(Object.keys(OPERATORS) as [Operator, ...Operator[]]).default("lt"),
  value: z.coerce.number().refine(Number.isFinite, "value must be a finite number").default(30),
  resolution: ResolutionParam,
  period: intParam(1, 1000).default(14),
  limit: intParam(1, 1000).default(50),
};

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/screen",
    tags: ["Technical indicators"],
    summary: "Catalogue instruments whose last indicator value meets a condition (cached 15 minutes)",
    security: keyed,
    request: {
      // A parameter it does not take (`and=`, a misspelt `operater=`) is a 400 naming it, never ignored.
      query: z.object(ScreenQuery).strict(),
    },
    responses: {
      200: {
        description: "The matches, most extreme first",
        content: { "application/json": { schema: ScreenResultSchema } },
      },
    },
  }),
);

export function registerScreen(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(await screen({ ctx: c.get("deps"), input: c.req.valid("query") }), 200),
  );
}
