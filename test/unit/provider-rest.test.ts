import { beforeEach, describe, expect, it } from "vitest";
import { cacheKeys } from "../../src/platform/cache";
import { MemoryCache } from "../../src/platform/cache/memory";
import { ProviderRests, type RestPolicy } from "../../src/providers/rest";

/** The rest rules alone (the shared list through a real cache, the routes in test/worker/provider-rest). */

const policy: RestPolicy = { afterFailures: 2, seconds: 60 };

const T0 = Date.parse("2026-11-26T12:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;
let n = 0;
/** A provider name of its own per test, and an isolate's rests of its own. */
let p = "";
let rests = new ProviderRests();

beforeEach(() => {
  rests = new ProviderRests();
  n += 1;
  p = `provider_${n}`;
});

describe("provider rests", () => {
  it("rests after the failures in a row, not after failures a rest's length apart", () => {
    rests.noteFailure(p, "timeout", s(0), policy);
    rests.noteFailure(p, "timeout", s(61), policy);
    expect(rests.restOf(p, s(62), policy)).toBeNull();
    rests.noteFailure(p, "timeout", s(62), policy);
    expect(rests.restOf(p, s(63), policy)).toMatchObject({ provider: p, failures: 2, reason: "timeout" });
  });

  it("a probe asks a resting provider: its answer ends the rest for every isolate", async () => {
    rests.noteFailure(p, "timeout", s(0), policy);
    rests.noteFailure(p, "timeout", s(1), policy);
    expect(rests.restOf(p, s(2), policy)).not.toBeNull();
    const cache = new MemoryCache(10);
    await rests.pushRests(cache, s(2));
    expect(Object.keys((await cache.get<Record<string, unknown>>(cacheKeys.providerRests())) ?? {})).toContain(p);
    rests.liftForProbe([p]);
    expect(rests.restOf(p, s(3), policy)).toBeNull();
    rests.noteSuccess(p, s(3));
    expect(rests.hasUnpublished()).toBe(true);
    await rests.pushRests(cache, s(3));
    expect(Object.keys((await cache.get<Record<string, unknown>>(cacheKeys.providerRests())) ?? {})).not.toContain(p);
  });

  it("a probe that fails rests the provider again at once, however old its streak", () => {
    rests.noteFailure(p, "timeout", s(0), policy);
    rests.noteFailure(p, "timeout", s(1), policy);
    rests.liftForProbe([p]);
    rests.noteFailure(p, "could not reach the host", s(600), policy);
    expect(rests.restOf(p, s(601), policy)).toMatchObject({
      reason: "could not reach the host",
      until: new Date(s(660)).toISOString(),
    });
  });
});
