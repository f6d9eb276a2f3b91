import { env } from "cloudflare:workers";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildDeps } from "../../src/deps";
import { cacheKeys } from "../../src/platform/cache";
import type { Rest } from "../../src/providers/rest";
import type { RenderedFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import type { Health } from "../../src/routes/health/schema";
import { call } from "../helpers/worker-http";

/**
 * A failing provider rests. The suite's bindings turn resting off (the fault matrix fails providers
 * on purpose and wants them back at once); this file turns it on for its own calls, and points the
 * scraped pages at an address nothing listens on, so no other file meets the rests it causes.
 */

/** An address on this machine where nothing listens (port 9 is discard, closed here). */
const DEAD = "http://127.0.0.1:9";
const resting = {
  PROVIDER_REST_AFTER_FAILURES: "2",
  PROVIDER_REST_SECONDS: "30",
  SCRAPED_ONVISTA_BASE_URL: DEAD,
  SCRAPED_BUSINESSINSIDER_BASE_URL: DEAD,
};
const T0 = Date.parse("2026-11-26T12:00:00Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const cache = buildDeps(env).cache;

async function onvistaEntry(seconds: number): Promise<Record<string, unknown>> {
  const res = await call<RenderedFundamentalsAnswer>(
    "/fundamental?ticker=MC.PA&provider=scraped_onvista&nocache=true",
    {
      at: at(seconds),
      env: resting,
      settleBackground: true,
    },
  );
  expect(res.status).toBe(200);
  return res.body.Providers.scraped_onvista as Record<string, unknown>;
}

describe("a provider that keeps failing rests, then is asked again", () => {
  afterAll(() => cache.delete(cacheKeys.providerRests()));

  it("after two failures in a row it is not asked for 30 s, each answer saying why; then it is asked again", async () => {
    // Refused, as workerd words it ("Network connection lost").
    const unreachable =
      /^scraped_onvista: could not reach 127\.0\.0\.1:9 \((connection refused|the connection was dropped)\)$/;
    expect((await onvistaEntry(0)).error).toMatch(unreachable);
    expect((await onvistaEntry(1)).error).toMatch(unreachable);
    const rested = await onvistaEntry(2);
    expect(rested.status).toBe("error");
    expect(rested.error).toMatch(
      /^scraped_onvista: not asked: resting until 2026-11-26T12:00:31\.\d{3}Z after 2 failures in a row \(last: could not reach 127\.0\.0\.1:9 \((connection refused|the connection was dropped)\)\)$/,
    );
    // /health says so.
    const health = await call<Health>("/health", { at: at(3), env: resting });
    // The clock pinned for a call runs on from its instant: the rest ends 30 s after the failure, to the millisecond.
    const until = health.body.providers.calls.scraped_onvista?.resting_until ?? "";
    expect(until).toMatch(/^2026-11-26T12:00:31\.\d{3}Z$/);
    // The other isolates learn it through the cache.
    const shared = await cache.get<Record<string, Rest>>(cacheKeys.providerRests());
    expect(shared?.scraped_onvista).toMatchObject({ until, failures: 2 });
    // Past its rest it is asked again (and, failing again, rests again).
    expect((await onvistaEntry(32)).error).toMatch(unreachable);
    expect((await onvistaEntry(33)).error).toMatch(/^scraped_onvista: not asked: resting until /);
    // Once it answers again, its rest is over here and in the shared list.
    const back = await call<RenderedFundamentalsAnswer>(
      "/fundamental?ticker=MC.PA&provider=scraped_onvista&nocache=true",
      {
        at: at(70),
        env: { ...resting, SCRAPED_ONVISTA_BASE_URL: inject("scrapedSimUrl") },
        settleBackground: true,
      },
    );
    expect(back.body.Providers.scraped_onvista).toMatchObject({ status: "ok" });
    expect((await cache.get<Record<string, Rest>>(cacheKeys.providerRests()))?.scraped_onvista).toBeUndefined();
  });

  it("takes a rest another isolate started from the cache", async () => {
    const until = at(200);
    await cache.set(
      cacheKeys.providerRests(),
      {
        scraped_businessinsider: {
          provider: "scraped_businessinsider",
          since: at(90),
          until,
          failures: 3,
          reason: "could not reach markets.businessinsider.com (connection refused)",
        },
      },
      300,
    );
    const ask = (seconds: number) =>
      call<RenderedFundamentalsAnswer>("/fundamental?ticker=AAPL&provider=scraped_businessinsider&nocache=true", {
        at: at(seconds),
        env: resting,
        settleBackground: true,
      });
    // The shared list is read in the background of a request (at most every 10 s): by the next request at the latest, it rests.
    await ask(100);
    const entry = (await ask(101)).body.Providers.scraped_businessinsider as Record<string, unknown>;
    expect(entry.error).toBe(
      `scraped_businessinsider: not asked: resting until ${until} after 3 failures in a row (last: could not reach markets.businessinsider.com (connection refused))`,
    );
  });

  it("never rests a provider where resting is off (the suite's own bindings)", async () => {
    const res = await call<RenderedFundamentalsAnswer>(
      "/fundamental?ticker=MC.PA&provider=scraped_onvista&nocache=true",
      {
        at: at(134),
        env: { SCRAPED_ONVISTA_BASE_URL: DEAD },
      },
    );
    const error = (res.body.Providers.scraped_onvista as Record<string, unknown>).error;
    expect(error).toMatch(/^scraped_onvista: could not reach 127\.0\.0\.1:9 /);
    expect(error).not.toMatch(/not asked/);
  });
});
