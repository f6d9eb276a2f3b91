import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The Worker as wrangler.toml declares it, with the test stack's settings (the per-key rate limit
 * raised for the suite's one key among them: test/helpers/global-setup.ts). The hardening nets' Worker
 * gets the bindings of a stack of their own (`hardeningBindings`: database, simulators, Redis).
 */
const worker = (opts: { hardening: boolean }) =>
  cloudflareTest(({ inject }) => ({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: opts.hardening ? inject("hardeningBindings") : inject("workerBindings"),
      // The generated nets start refresh runs (POST /catalogue/refresh) at random: their listings go
      // to a queue nobody consumes, since a run ingests hundreds of listings in the background and
      // would change the database under the nets' snapshots. The worker tests consume theirs.
      // The worker tests also get that queue, for a run that must not be ingested (the first refresh
      // of the whole catalogue).
      // Imports likewise: the nets' imports stay queued, so that a repeat finds the same import running.
      queueProducers: {
        [opts.hardening ? "REFRESH_QUEUE" : "UNCONSUMED_REFRESH_QUEUE"]: {
          queueName: "catalogue-refresh-unconsumed",
        },
        // Queued screens too: a run's shares would be written after the nets' snapshots.
        ...(opts.hardening
          ? {
              IMPORT_QUEUE: { queueName: "catalogue-import-unconsumed" },
              SCREEN_QUEUE: { queueName: "screen-runs-unconsumed" },
            }
          : {}),
      },
      // The docs Worker of workers/docs (static files only), which /docs/assets/* is forwarded to.
      // And the MCP Worker (workers/mcp), which POST /mcp is handed to.
      workers: [inject("docsWorker"), inject("mcpWorker")],
    },
  }));

/** Worker tests that read what a fresh isolate holds (no provider called yet, no provider resting). */
const FRESH_ISOLATE = ["test/worker/health.test.ts", "test/worker/provider-rest.test.ts"];

/**
 * When one vitest run holds them all: the unit tests first (two files at once), then the hardening
 * nets (one file at a time: the two files share the nets' stack), then the API tests (one file at a
 * time: they share the API tests' stack). (A group below 1 would not do: vitest runs a project of
 * group 0 after every numbered group, and drops a negative one; and vitest gives every project of a
 * group the same `maxWorkers`.) `npm test` does not run them so: tools/test/run.ts runs them in
 * several vitest processes at once, each with a stack of its own.
 */
const UNIT_GROUP = 1;
const NETS_GROUP = 2;
const API_GROUP = 3;
/**
 * What the API tests' projects (the Worker's, in one runtime or fresh ones) share: one file at a
 * time, since they share the database and the simulators.
 */
const API_TESTS = { testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 1, sequence: { groupOrder: API_GROUP } };

export default defineConfig({
  test: {
    // Runs in plain Node (outside the Workers plugin): starts Postgres, the Neon proxy, the simulators
    // and the Redis bridge, once for every project of the run that needs them.
    globalSetup: ["./test/helpers/global-setup.ts"],
    // Two files at once at most (the machine's cores): two unit files, never two that share a
    // database (each such project runs one file at a time).
    maxWorkers: 2,
    projects: [
      {
        // Pure code and the Node-side tools (Redis bridge, dev stack) in plain Node: no database, no
        // simulator (a run of only these starts none: test/helpers/global-setup.ts).
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          maxWorkers: 2,
          sequence: { groupOrder: UNIT_GROUP },
        },
      },
      {
        // Node-side tools driven against the test stack's database (the local SQL-over-HTTP endpoint).
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          maxWorkers: 1,
          sequence: { groupOrder: API_GROUP },
        },
      },
      {
        // The README's dev command, started and stopped as a user would (run by CI with `npm run test:smoke`).
        // One file at a time: two `wrangler dev` stacks at once contend for the same runtime socket.
        test: {
          name: "smoke",
          include: ["test/smoke/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          maxWorkers: 1,
        },
      },
      {
        // The Worker itself, inside workerd, against real Postgres (through the Neon proxy) and Redis.
        // The files share one runtime (isolate: false): starting workerd and loading the Worker for
        // each of 35 files cost more than half of their time. Each file sets up the state it reads.
        plugins: [worker({ hardening: false })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          exclude: FRESH_ISOLATE,
          isolate: false,
          ...API_TESTS,
        },
      },
      {
        // What only a fresh isolate shows (no provider called yet): a runtime of their own.
        plugins: [worker({ hardening: false })],
        test: {
          name: "worker-fresh",
          include: FRESH_ISOLATE,
          ...API_TESTS,
        },
      },
      {
        // The nets generated from the OpenAPI document and the sandbox's registry, in two files
        // (provider-nets, request-nets), each running its nets one after another. Their bindings
        // point at a stack of their own (test/helpers/global-setup.ts): the fuzzer may delete data,
        // the concurrency net compares whole-database snapshots, the fault matrix fails providers.
        plugins: [worker({ hardening: true })],
        test: {
          name: "hardening",
          include: ["test/hardening/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: NETS_GROUP },
        },
      },
    ],
  },
});
