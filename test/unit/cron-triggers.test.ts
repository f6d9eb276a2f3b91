import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CRON_JOBS } from "../../src/cron";

const crons = () => {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const line = /^crons\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  return [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
};

/** wrangler.toml's Cron Triggers and src/cron.ts's table name the same expressions, and a worker test runs each. */
describe("the Cron Triggers", () => {
  it("are exactly the expressions src/cron.ts has jobs for", () => {
    expect(crons().sort()).toEqual(Object.keys(CRON_JOBS).sort());
    expect(crons().length).toBe(6);
  });

  it("are each run by a worker test through the Workers runtime's scheduled handler", () => {
    const dir = new URL("../worker/", import.meta.url);
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => readFileSync(new URL(f, dir), "utf8"));
    for (const cron of crons()) {
      const run = `createScheduledController({ cron: "${cron}" })`;
      expect(
        sources.some((s) => s.includes(run)),
        `no worker test calls ${run}`,
      ).toBe(true);
    }
  });
});
