import { describe, expect, it } from "vitest";
import { pinnedClock } from "../../src/clock";
import { buildDeps, type Deps } from "../../src/deps";
import type { Cache } from "../../src/platform/cache";
import { getHealth } from "../../src/services/health/get-health";

/**
 * A polled /health makes no cache round trip once the isolate has read the cache's state: the view
 * is at most 5 s old on the answer's path, an older one is answered and read again after the answer.
 * The real in-isolate cache, its calls counted on the way through.
 */

function counted(cache: Cache): { cache: Cache; calls: () => number } {
  let n = 0;
  const wrapped = new Proxy(cache, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        n += 1;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { cache: wrapped, calls: () => n };
}

describe("GET /health's view of the cache", () => {
  it("reads the cache once, answers from memory while the view is fresh, then refreshes after the answer", async () => {
    const base = buildDeps({});
    const { cache, calls } = counted(base.cache);
    const at = (iso: string): Deps => ({ ...base, cache, clock: pinnedClock(iso) });
    const later: Promise<void>[] = [];
    const background = (work: Promise<void>) => void later.push(work);

    const first = await getHealth({ ctx: at("2026-11-27T10:00:00Z"), background });
    const afterFirst = calls();
    expect(first.cache.status).toBe("memory (in-isolate LRU; Upstash not configured)");
    // Within 5 s: the answer is made with no cache call, and nothing is scheduled.
    await getHealth({ ctx: at("2026-11-27T10:00:04Z"), background });
    expect(calls()).toBe(afterFirst);
    expect(later).toHaveLength(0);
    // Older: answered at once, the view read again in the background.
    await getHealth({ ctx: at("2026-11-27T10:00:10Z"), background });
    expect(later).toHaveLength(1);
    await Promise.all(later);
    expect(calls()).toBeGreaterThan(afterFirst);
  });
});
