import { describe, expect, it } from "vitest";
import { call } from "../helpers/worker-http";

describe("bad input", () => {
  it("gets a JSON 4xx, never a 500 or HTML", async () => {
    const cases = [
      "/assets/by-isin/%FF%FE",
      "/assets/by-isin/" + "A".repeat(5000),
      "/assets/by-isin/US0378331005%00",
      "/assets/by-isin/%20",
      "/listings?ticker=" + "%F0%9F%92%A9".repeat(50),
      "/listings?isin=US0378331005&isin=FR0000121014",
      "/listings?currency=%00",
      "/listings?exchange=' OR 1=1 --",
    ];
    for (const path of cases) {
      const res = await call(path);
      expect(res.status, path).toBeGreaterThanOrEqual(200);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      if (res.status >= 400) expect(typeof res.body.message, path).toBe("string");
    }
  });

  it("treats a filter as data, not SQL", async () => {
    const res = await call("/listings?exchange=' OR 1=1 --");
    expect(res.body).toEqual({ count: 0, listings: [] });
  });
});
