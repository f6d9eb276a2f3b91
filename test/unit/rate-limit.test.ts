import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RATE_WINDOW_SECONDS } from "../../src/platform/rate-limit";

describe("the per-key rate limit", () => {
  it("tells refused callers the window wrangler.toml configures", () => {
    const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
    const limiter = /name = "KEY_RATE_LIMITER"[\s\S]*?simple = \{ limit = (\d+), period = (\d+) \}/.exec(toml);
    expect(limiter, "KEY_RATE_LIMITER in wrangler.toml").not.toBeNull();
    expect(Number(limiter?.[2])).toBe(RATE_WINDOW_SECONDS);
  });
});
