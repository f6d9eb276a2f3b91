import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The Worker as wrangler.toml declares it, with the test stack's settings, and the per-key rate
 * limit raised for the suite's one key (the generated nets send it tens of thousands of requests);
 * the rate-limit tests swap in TIGHT_RATE_LIMITER, 3 requests a minute.
 */
const worker = (opts: { refreshConsumed: boolean }) =>
  cloudflareTest(({ inject }) => ({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: inject("workerBindings"),
      // The generated nets start refresh runs (POST /catalogue/refresh) at random: their listings go
      // to a queue nobody consumes, since a run ingests hundreds of listings in the background and
      // would change the database under the nets' snapshots. The worker tests consume theirs.
      // The worker tests also get that queue, for a run that must not be ingested (the first refresh
      // of the whole catalogue).
      queueProducers: {
        [opts.refreshConsumed ? "UNCONSUMED_REFRESH_QUEUE" : "REFRESH_QUEUE"]: {
          queueName: "catalogue-refresh-unconsumed",
        },
      },
      ratelimits: {
        KEY_RATE_LIMITER: { namespace_id: "1001", simple: { limit: 10_000_000, period: 60 } },
        TIGHT_RATE_LIMITER: { namespace_id: "1002", simple: { limit: 3, period: 60 } },
      },
    },
  }));

export default defineConfig({
  test: {
    // Runs in plain Node (outside the Workers plugin): starts Postgres, the Neon proxy, the simulators
    // and the Redis bridge, once for every project of the run that needs them.
    globalSetup: ["./test/helpers/global-setup.ts"],
    projects: [
      {
        // Pure code and the Node-side tools (Redis bridge, dev stack) in plain Node: no database, no
        // simulator (a run of only these starts none: test/helpers/global-setup.ts).
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      {
        // Node-side tools driven against the test stack's database (the local SQL-over-HTTP endpoint).
        test: { name: "node", include: ["test/node/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      {
        // The README's dev command, started and stopped as a user would (run by CI with `npm run test:smoke`).
        test: { name: "smoke", include: ["test/smoke/**/*.test.ts"], environment: "node", testTimeout: 120_000 },
      },
      {
        // The Worker itself, inside workerd, against real Postgres (through the Neon proxy) and Redis.
        plugins: [worker({ refreshConsumed: true })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The nets generated from the OpenAPI document and the sandbox's registry: in a group of
        // their own (another groupOrder: never beside the worker tests) and one file at a time, since
        // the fuzzer may delete data (POST /database/cleanup) and the concurrency net compares
        // whole-database snapshots.
        plugins: [worker({ refreshConsumed: false })],
        test: {
          name: "hardening",
          include: ["test/hardening/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
