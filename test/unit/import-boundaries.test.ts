import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  boundaryProblem,
  importCycles,
  layerOf,
  packageProblem,
  repositorySources,
  violations,
} from "../../tools/lint/layers";

describe("the import rules (npm run lint)", () => {
  it("hold in the repository", () => {
    expect(violations(repositorySources(fileURLToPath(new URL("../..", import.meta.url))))).toEqual([]);
  });

  it("place every file in a layer, top-level files and the Durable Objects too", () => {
    const at = (paths: string[]) => paths.map(layerOf);
    expect(at(["src/domain/indicators/catalogue.ts", "src/domain/venue-calendars/venue.ts", "src/data/x.ts"])).toEqual([
      "domain",
      "domain",
      "domain",
    ]);
    expect(at(["src/env.ts", "src/clock.ts", "src/auth.ts", "src/websocket-response.ts"])).toEqual([
      "base",
      "base",
      "base",
      "base",
    ]);
    expect(at(["src/db/client.ts", "src/platform/cache/index.ts", "src/providers/rest.ts"])).toEqual([
      "lower",
      "lower",
      "lower",
    ]);
    expect(layerOf("src/services/eod/get-eod.ts")).toBe("services");
    expect(at(["src/deps.ts", "src/work.ts"])).toEqual(["composition", "composition"]);
    expect(layerOf("src/routes/eod/get-eod.ts")).toBe("routes");
    expect(at(["src/app.ts", "src/middleware/after-answer.ts"])).toEqual(["http", "http"]);
    expect(at(["src/index.ts", "src/cron.ts", "durable-objects/ticker-stream.ts"])).toEqual([
      "entry",
      "entry",
      "entry",
    ]);
    expect(layerOf("src/new-thing.ts")).toBeNull();
  });

  it("refuse upward imports, with the file, the line and why", () => {
    const files = new Map([
      ["src/domain/a.ts", 'import { x } from "./b";\nimport type { Context } from "../platform/context";\n'],
      ["src/domain/b.ts", "export const x = 1;\n"],
      ["src/platform/context.ts", "export type Context = {};\n"],
      ["src/db/repo.ts", 'import { s } from "../services/s";\n'],
      ["src/services/s.ts", 'import { buildDeps } from "../deps";\nexport const s = 1;\n'],
      ["src/deps.ts", 'import { r } from "./routes/r";\nexport const buildDeps = 1;\n'],
      ["src/routes/r.ts", 'import { app } from "../app";\nexport const r = 1;\n'],
      ["src/app.ts", 'import { cron } from "./cron";\nexport const app = 1;\n'],
      ["src/cron.ts", "export const cron = 1;\n"],
    ]);
    expect(violations(files)).toEqual([
      "src/domain/a.ts:2: imports src/platform/context.ts (a domain file imports nothing of the lower layer above it)",
      "src/db/repo.ts:1: imports src/services/s.ts (a lower file imports nothing of the services layer above it)",
      "src/services/s.ts:1: imports src/deps.ts (a services file imports nothing of the composition layer above it)",
      "src/deps.ts:1: imports src/routes/r.ts (a composition file imports nothing of the routes layer above it)",
      "src/routes/r.ts:1: imports src/app.ts (a routes file imports nothing of the http layer above it)",
      "src/app.ts:1: imports src/cron.ts (a http file imports nothing of the entry layer above it)",
    ]);
    expect(boundaryProblem("src/routes/r.ts", "src/domain/b.ts")).toBeNull();
    expect(boundaryProblem("durable-objects/ticker-stream.ts", "src/deps.ts")).toBeNull();
  });

  it("keep the database, the providers and the cache behind the services", () => {
    const files = new Map([
      ["src/routes/r.ts", 'import { q } from "../db/repositories/q";\nimport { k } from "../platform/cache";\n'],
      ["src/routes/p.ts", 'import type { P } from "../providers/p";\nimport type { C } from "../platform/context";\n'],
      ["src/db/repositories/q.ts", "export const q = 1;\n"],
      ["src/platform/cache/index.ts", "export const k = 1;\n"],
      ["src/platform/context.ts", "export type C = {};\n"],
      ["src/providers/p.ts", "export type P = {};\n"],
    ]);
    const why = "routes reach the database, providers and cache through services";
    expect(violations(files)).toEqual([
      `src/routes/r.ts:1: imports src/db/repositories/q.ts (${why})`,
      `src/routes/r.ts:2: imports src/platform/cache/index.ts (${why})`,
      `src/routes/p.ts:1: imports src/providers/p.ts (${why})`,
    ]);
  });

  it("keep drizzle-orm under src/db and hono in the HTTP layer", () => {
    const files = new Map([
      ["src/services/s.ts", 'import { eq } from "drizzle-orm";\nimport type { Context } from "hono";\n'],
      ["src/db/repositories/q.ts", 'import { eq } from "drizzle-orm";\nimport { sql } from "drizzle-orm/sql";\n'],
      ["src/routes/r.ts", 'import { createRoute } from "@hono/zod-openapi";\nimport { Hono } from "hono";\n'],
      ["durable-objects/d.ts", 'import { upgradeWebSocket } from "hono/cloudflare-workers";\n'],
    ]);
    expect(violations(files)).toEqual([
      "src/services/s.ts:1: imports drizzle-orm (drizzle-orm is imported only under src/db)",
      "src/services/s.ts:2: imports hono (hono is imported only by the HTTP layer (routes, middleware, app))",
      "durable-objects/d.ts:1: imports hono/cloudflare-workers (hono is imported only by the HTTP layer (routes, middleware, app))",
    ]);
    expect(packageProblem("src/middleware/after-answer.ts", "hono/factory")).toBeNull();
    expect(packageProblem("src/domain/a.ts", "zod")).toBeNull();
  });

  it("find every import cycle, type-only imports and side-effect imports included", () => {
    const files = new Map([
      ["src/domain/a.ts", 'import type { B } from "./b";\nexport type A = B;\n'],
      ["src/domain/b.ts", 'import { c } from "./c";\nexport type B = number;\n'],
      ["src/domain/c.ts", 'import "./a";\nexport const c = 1;\n'],
      ["src/domain/self.ts", 'export * from "./self";\n'],
      ["src/domain/free.ts", 'import { c } from "./c";\n'],
    ]);
    expect(importCycles(files)).toEqual([
      "import cycle among: src/domain/a.ts, src/domain/b.ts, src/domain/c.ts",
      "import cycle among: src/domain/self.ts",
    ]);
    expect(violations(files)).toEqual(importCycles(files));
  });

  it("report a file no layer takes", () => {
    expect(violations(new Map([["src/helpers.ts", "export const h = 1;\n"]]))).toEqual([
      "src/helpers.ts: in no layer (tools/lint/layers.ts)",
    ]);
  });
});
