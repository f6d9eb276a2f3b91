import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CRON_JOBS } from "../../src/cron";

/** wrangler.toml's Cron Triggers and src/cron.ts's table name the same expressions (each is run by a worker test). */
describe("the Cron Triggers", () => {
  it("are exactly the expressions src/cron.ts has jobs for", () => {
    const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
    const line = /^crons\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
    const crons = [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(crons.sort()).toEqual(Object.keys(CRON_JOBS).sort());
    expect(crons.length).toBe(4);
  });
});
