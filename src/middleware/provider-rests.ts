import { createMiddleware } from "hono/factory";
import { isolate } from "../providers/isolate";
import { restPolicyOf } from "../providers/rest";
import type { AppEnv } from "../routes/env";

/**
 * Shares the providers' rests between isolates through the cache (src/providers/rest.ts), off the
 * request path: the shared list is read in the background (at most every few seconds per isolate),
 * and a rest this request started is written after its answer.
 */
export const providerRests = createMiddleware<AppEnv>(async (c, next) => {
  const deps = c.get("deps");
  const background = (work: Promise<void>) => {
    const settled = work.catch((err: unknown) => console.warn("provider rests not shared", String(err)));
    try {
      c.executionCtx.waitUntil(settled);
    } catch {
      // No execution context (app.request in a plain unit test): the promise settles on its own.
    }
  };
  const { rests } = isolate;
  const policy = restPolicyOf(deps.config);
  const now = deps.clock.now().getTime();
  if (rests.pullDue(now, policy)) background(rests.pullRests(deps.cache, now, policy));
  await next();
  if (rests.hasUnpublished()) background(rests.pushRests(deps.cache, deps.clock.now().getTime()));
});
