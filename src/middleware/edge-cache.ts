import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../routes/env";
import { answeringRoute } from "./answering-route";
import { asksRefresh } from "./refresh-guard";

/**
 * The routes whose answers are the same for every key (prices, indicators, fundamentals documents,
 * valuations, news): after the key check, their GET answers may be served from the Workers Cache
 * API of the caller's location, keyed by the URL alone (keys travel in headers, never in the URL).
 * Each reads through the shared cache, whose lifetimes bound the copy's (`Journal.keeping`); the
 * news feed, read from the database each time, is not among them.
 */
export const EDGE_CACHED_ROUTES: ReadonlySet<string> = new Set([
  "/eod/:ticker",
  "/ticker/:symbol/history",
  "/technical/screen",
  "/technical/:ticker",
  "/technical/:ticker/chart",
  "/technical/:ticker/multi",
  "/fundamental",
  "/fundamental/deep",
  "/dcf/:ticker",
  "/dcf/:ticker/sensitivity",
  "/news/:ticker",
]);

/**
 * The patterns to mount the edge cache on: one per cacheable route, less those another pattern
 * already matches (`/technical/:ticker` matches `/technical/screen`), so that no request passes
 * through it twice; the middleware itself keeps to the exact routes above.
 * @example edgeCacheMounts(["/a/:x", "/a/b"]) // ["/a/:x"]
 */
export function edgeCacheMounts(routes: Iterable<string>): string[] {
  const all = [...routes];
  const covers = (pattern: string, path: string) => {
    const p = pattern.split("/");
    const q = path.split("/");
    return p.length === q.length && p.every((seg, i) => seg.startsWith(":") || seg === q[i]);
  };
  return all.filter((path) => !all.some((other) => other !== path && covers(other, path)));
}

/** The location's cache: `caches.default` of the Workers runtime (absent elsewhere). */
function locationCache(): globalThis.Cache | undefined {
  return typeof caches === "undefined" ? undefined : (caches as unknown as { default?: globalThis.Cache }).default;
}

/** The one key of an answer at a location: the URL with its query in a fixed order. */
function edgeKey(url: URL): Request {
  const u = new URL(url);
  u.searchParams.sort();
  u.hash = "";
  return new Request(u.toString(), { method: "GET" });
}

/**
 * Serves a GET from the location's cache when it holds the answer (`X-Edge-Cache: hit`), else
 * answers and keeps a 200 there for the shorter of EDGE_CACHE_SECONDS and the lifetime its reads
 * were cached for (the spec's lifetimes rule; an answer that was not cached, such as one holding
 * provisional bars, is not kept). A location's copy outlives an ingestion or a cache clear by at
 * most EDGE_CACHE_SECONDS: the Cache API of other locations cannot be purged from here. 0 turns it off.
 */
export const edgeCache = createMiddleware<AppEnv>(async (c, next) => {
  const deps = c.get("deps");
  const maxSeconds = deps.config.EDGE_CACHE_SECONDS;
  const store = locationCache();
  const cacheable = c.req.method === "GET" && EDGE_CACHED_ROUTES.has(answeringRoute(c));
  if (!cacheable || maxSeconds === 0 || !store) return next();
  // A refresh asked for by a full-access key (a read-only key's was taken out by refreshGuard) is never served a copy.
  const url = new URL(c.req.url);
  if (asksRefresh(url)) return next();
  const key = edgeKey(url);
  const held = await store.match(key).catch(() => undefined);
  if (held) {
    const answer = new Response(held.body, held);
    answer.headers.delete("Cache-Control");
    answer.headers.set("X-Edge-Cache", "hit");
    return answer;
  }
  await next();
  const seconds = Math.min(maxSeconds, deps.journal.keeping.seconds);
  if (c.res.status !== 200 || seconds <= 0) return;
  const copy = c.res.clone();
  const kept = new Response(copy.body, copy);
  kept.headers.set("Cache-Control", `public, max-age=${seconds}`);
  // What is the caller's own: its request's id and its key's budget (each answer tells its own).
  for (const name of ["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"])
    kept.headers.delete(name);
  deps.journal.defer(store.put(key, kept));
  c.res.headers.set("X-Edge-Cache", "miss");
});
