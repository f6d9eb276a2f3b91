import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { boundaryProblem, layerOf, repositorySources, violations } from "../../tools/lint/layers";

describe("the import boundaries (npm run lint)", () => {
  it("hold in the repository", () => {
    expect(violations(repositorySources(fileURLToPath(new URL("../..", import.meta.url))))).toEqual([]);
  });

  it("place each file in its layer", () => {
    expect(layerOf("src/domain/indicators/catalogue.ts")).toBe("domain");
    expect(["src/db/client.ts", "src/cache/index.ts", "src/providers/rest.ts"].map(layerOf)).toEqual([
      "lower",
      "lower",
      "lower",
    ]);
    expect(layerOf("src/services/eod/get-eod.ts")).toBe("services");
    expect(layerOf("src/routes/eod/get-eod.ts")).toBe("routes");
    expect(layerOf("src/app.ts")).toBe("http");
  });

  it("refuse upward imports, with the file, the line and why", () => {
    const files = new Map([
      ["src/domain/a.ts", 'import { x } from "./b";\nimport type { Deps } from "../deps";\n'],
      ["src/domain/b.ts", "export const x = 1;\n"],
      ["src/deps.ts", "export type Deps = {};\n"],
      ["src/cache/index.ts", "export const c = 1;\n"],
      ["src/db/repo.ts", 'import { c } from "../cache";\nimport { s } from "../services/s";\n'],
      ["src/services/s.ts", 'import { r } from "../routes/r";\nexport const s = 1;\n'],
      ["src/routes/r.ts", 'import { s } from "../services/s";\nexport const r = 1;\n'],
    ]);
    expect(violations(files)).toEqual([
      "src/domain/a.ts:2: imports src/deps.ts (domain code imports nothing of ours outside the domain)",
      "src/db/repo.ts:2: imports src/services/s.ts (providers, db and cache import no service or route)",
      "src/services/s.ts:1: imports src/routes/r.ts (no service imports a route)",
    ]);
    expect(boundaryProblem("src/routes/r.ts", "src/domain/b.ts")).toBeNull();
    expect(boundaryProblem("src/services/s.ts", "src/app.ts")).toBe("no service imports a route");
  });
});
