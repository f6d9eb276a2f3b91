import { describe, expect, it } from "vitest";
import { splitAnonymous, type UsageEntry, usageOf } from "../../src/domain/usage";

const entry = (id: string, keyKind: UsageEntry["keyKind"], route: string, status: number, at: string): UsageEntry => ({
  id,
  method: "GET",
  route,
  ticker: null,
  keyKind,
  status,
  latencyMs: 1,
  createdAt: new Date(at),
});

describe("keyless requests in the usage log", () => {
  it("are counted per route and status from their first request, while keyed ones stay entries", () => {
    const { keyed, counts } = splitAnonymous(
      [
        entry("a", "none", "/health", 200, "2026-11-25T10:00:02Z"),
        entry("b", "read_only", "/eod/:ticker", 200, "2026-11-25T10:00:01Z"),
        entry("c", "none", "/health", 200, "2026-11-25T10:00:01Z"),
        entry("d", "none", "/eod/:ticker", 401, "2026-11-25T10:00:03Z"),
      ],
      "send-1",
    );
    expect(keyed.map((e) => e.id)).toEqual(["b"]);
    expect(counts).toEqual([
      { batch: "send-1", route: "/health", status: 200, requests: 2, windowStart: new Date("2026-11-25T10:00:01Z") },
      {
        batch: "send-1",
        route: "/eod/:ticker",
        status: 401,
        requests: 1,
        windowStart: new Date("2026-11-25T10:00:03Z"),
      },
    ]);
  });

  it("become counts under their own ids when a message of before carries them as entries", () => {
    const old = entry("lone", "none", "/health", 200, "2026-11-25T10:00:00Z");
    expect(usageOf(JSON.parse(JSON.stringify(old)))).toEqual({
      entries: [],
      counts: [{ batch: "lone", route: "/health", status: 200, requests: 1, windowStart: old.createdAt }],
      invalid: 0,
    });
    expect(usageOf({ entries: [], anonymous: [{ batch: "x" }] }).invalid).toBe(1);
  });
});
