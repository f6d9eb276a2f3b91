import { describe, expect, it } from "vitest";
import * as zod from "zod";
import * as zodCore from "zod/v4/core";
import * as shimCore from "../../tools/build/zod-without-locales/core.js";
import * as shim from "../../tools/build/zod-without-locales/index.js";

/** The API Worker's zod (wrangler.toml [alias]) is zod but for its locales. */
describe("zod without its locales", () => {
  it("exports exactly what zod exports, but `locales`, from the same modules", () => {
    expect(Object.keys(shim).sort()).toEqual(
      Object.keys(zod)
        .filter((k) => k !== "locales")
        .sort(),
    );
    expect(Object.keys(shim.z).sort()).toEqual(
      Object.keys(zod.z)
        .filter((k) => k !== "locales")
        .sort(),
    );
    expect(Object.keys(shimCore).sort()).toEqual(
      Object.keys(zodCore)
        .filter((k) => k !== "locales")
        .sort(),
    );
    // One zod: the same classes and functions, so schemas built with either are the same kind.
    expect(shim.z.object).toBe(zod.z.object);
    expect(shim.ZodError).toBe(zod.ZodError);
    expect(shimCore.$ZodType).toBe(zodCore.$ZodType);
  });

  it("still speaks English", () => {
    const parsed = shim.z.object({ n: shim.z.number().int() }).safeParse({ n: 1.5 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Invalid input: expected int, received number");
  });
});
