import { beforeEach, describe, expect, it } from "vitest";
import { cacheKeys } from "../../src/platform/cache";
import { MemoryCache } from "../../src/platform/cache/memory";
import {
  hasUnpublishedRests,
  liftForProbe,
  noteFailure,
  noteSuccess,
  pushRests,
  restOf,
  setRestPolicy,
} from "../../src/providers/rest";

/** The rest rules alone (the shared list through a real cache, the routes in test/worker/provider-rest). */

const T0 = Date.parse("2026-11-26T12:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;
let n = 0;
/** A provider name of its own per test: the rules keep state per isolate. */
let p = "";

beforeEach(() => {
  setRestPolicy({ afterFailures: 2, seconds: 60 });
  n += 1;
  p = `provider_${n}`;
});

describe("provider rests", () => {
  it("rests after the failures in a row, not after failures a rest's length apart", () => {
    noteFailure(p, "timeout", s(0));
    noteFailure(p, "timeout", s(61));
    expect(restOf(p, s(62))).toBeNull();
    noteFailure(p, "timeout", s(62));
    expect(restOf(p, s(63))).toMatchObject({ provider: p, failures: 2, reason: "timeout" });
  });

  it("a probe asks a resting provider: its answer ends the rest for every isolate", async () => {
    noteFailure(p, "timeout", s(0));
    noteFailure(p, "timeout", s(1));
    expect(restOf(p, s(2))).not.toBeNull();
    const cache = new MemoryCache(10);
    await pushRests(cache, s(2));
    expect(Object.keys((await cache.get<Record<string, unknown>>(cacheKeys.providerRests())) ?? {})).toContain(p);
    liftForProbe([p]);
    expect(restOf(p, s(3))).toBeNull();
    noteSuccess(p, s(3));
    expect(hasUnpublishedRests()).toBe(true);
    await pushRests(cache, s(3));
    expect(Object.keys((await cache.get<Record<string, unknown>>(cacheKeys.providerRests())) ?? {})).not.toContain(p);
  });

  it("a probe that fails rests the provider again at once, however old its streak", () => {
    noteFailure(p, "timeout", s(0));
    noteFailure(p, "timeout", s(1));
    liftForProbe([p]);
    noteFailure(p, "could not reach the host", s(600));
    expect(restOf(p, s(601))).toMatchObject({
      reason: "could not reach the host",
      until: new Date(s(660)).toISOString(),
    });
  });
});
