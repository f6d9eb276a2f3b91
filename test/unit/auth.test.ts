import { describe, expect, it } from "vitest";
import { accessOf, classifyKey, extractKey } from "../../src/auth";

const config = { SERVICE_API_KEYS: ["full-1", "full-2"], SERVICE_READ_ONLY_API_KEYS: ["ro-1"] };

describe("keys", () => {
  it("classifies full-access, read-only and unknown keys", async () => {
    expect(await classifyKey("full-2", config)).toBe("full");
    expect(await classifyKey("ro-1", config)).toBe("read_only");
    expect(await classifyKey("full-", config)).toBeNull();
    expect(await classifyKey("", config)).toBeNull();
    expect(await classifyKey(undefined, config)).toBeNull();
    expect(await classifyKey("x", { SERVICE_API_KEYS: [], SERVICE_READ_ONLY_API_KEYS: [] })).toBeNull();
  });

  it("reads X-API-KEY first, then a Bearer token, and the query only when a URL is given", () => {
    expect(extractKey(new Headers({ "x-api-key": "a", authorization: "Bearer b" }))).toBe("a");
    expect(extractKey(new Headers({ authorization: "Bearer b" }))).toBe("b");
    expect(extractKey(new Headers({ authorization: "bearer   c " }))).toBe("c");
    expect(extractKey(new Headers(), new URL("http://x/ws?api_key=q"))).toBe("q");
    expect(extractKey(new Headers(), new URL("http://x/ws?token=t&key=k"))).toBe("t");
    expect(extractKey(new Headers())).toBeUndefined();
  });

  it("opens public routes, closes unlisted writes to read-only keys", () => {
    expect(accessOf("GET", "/health")).toBe("public");
    expect(accessOf("HEAD", "/health")).toBe("public");
    expect(accessOf("GET", "/eod/:ticker")).toBe("any");
    expect(accessOf("POST", "/cache/clear")).toBe("full");
    expect(accessOf("POST", "/technical/batch")).toBe("any");
    expect(accessOf("POST", "/dcf/:ticker")).toBe("any");
    expect(accessOf("PUT", "/something/new")).toBe("full");
  });
});
