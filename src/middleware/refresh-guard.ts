import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../routes/env";
import { isTrueWord } from "../routes/params";
import { dropQuery } from "./drop-query";

/**
 * The query parameters that make a route skip its caches and ask the providers again (the news
 * routes' `force_refresh`, the DCF routes' too, the fundamentals document's `nocache`, the deep
 * fundamentals' `refresh`): each a fan-out to the providers on the caller's word.
 */
export const REFRESH_PARAMS: readonly string[] = ["force_refresh", "nocache", "refresh"];

/** The answer's header naming the refresh parameters a read-only key sent and the service ignored. */
export const REFRESH_IGNORED_HEADER = "X-Refresh-Ignored";

/** Whether the request asks for a refresh (a refresh parameter set to true). */
export const asksRefresh = (url: URL): boolean => REFRESH_PARAMS.some((p) => isTrueWord(url.searchParams.get(p)));

/**
 * A read-only key cannot force a refresh: its refresh parameters set to true are taken out of the request before
 * the route reads it (so it is answered as without them, from the caches), and the answer names them
 * in X-Refresh-Ignored. Full-access keys keep them. The one place of this rule.
 */
export const refreshGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("keyKind") !== "read_only" || !c.req.url.includes("?")) return next();
  const url = new URL(c.req.url);
  const ignored = REFRESH_PARAMS.filter((p) => isTrueWord(url.searchParams.get(p)));
  if (ignored.length === 0) return next();
  dropQuery(c, url, ignored);
  await next();
  c.res.headers.set(REFRESH_IGNORED_HEADER, `${ignored.join(", ")} (a read-only key cannot force a refresh)`);
});
