import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Runs in plain Node (outside the Workers plugin): starts Postgres, the Neon proxy and the Redis bridge.
    globalSetup: ["./test/helpers/global-setup.ts"],
    projects: [
      {
        // Pure code and the Node-side tools (Redis bridge, dev stack) in plain Node.
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      {
        // The README's dev command, started and stopped as a user would (run by CI with `npm run test:smoke`).
        test: { name: "smoke", include: ["test/smoke/**/*.test.ts"], environment: "node", testTimeout: 120_000 },
      },
      {
        // The Worker itself, inside workerd, against real Postgres (through the Neon proxy) and Redis.
        plugins: [
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: inject("workerBindings") },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
