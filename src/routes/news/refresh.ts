import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { refreshStoredNews } from "../../services/news/refresh-stored";
import { inBackground } from "../background";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { NewsTickerParams, QueuedSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/news/{ticker}/refresh",
    "x-access": "full",
    tags: ["News"],
    description:
      "Refetches the ticker's news from the providers after answering (at once, `{status: \"queued\", ticker}`), stores the articles of a catalogue instrument, and drops the ticker's cached news answers so the next GET /news/{ticker} sees them. Needs a full-access key.",
    summary: "Refetches a ticker's news in the background (full-access); answers at once",
    security: keyed,
    "x-background": true,
    request: { params: NewsTickerParams },
    responses: {
      200: { description: "Queued", content: { "application/json": { schema: QueuedSchema } } },
    },
  }),
);

export function registerRefreshNews(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const ticker = c.req.valid("param").ticker;
    inBackground(c, (deps) => refreshStoredNews(deps, ticker));
    return c.json({ status: "queued" as const, ticker }, 200);
  });
}
