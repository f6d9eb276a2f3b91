import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { accessOf, extractKey, identifyKey } from "../../src/auth";

const config = { SERVICE_API_KEYS: ["full-1", "full-2"], SERVICE_READ_ONLY_API_KEYS: ["ro-1"] };
/** The longest key a request may carry: past it, the key is refused unhashed. */
const LONGEST = "k".repeat(256);

describe("keys", () => {
  it("identifies full-access, read-only and unknown keys, each known one by the first half of its SHA-256", async () => {
    const fingerprint = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 32);
    expect(await identifyKey("full-2", config)).toEqual({ kind: "full", fingerprint: fingerprint("full-2") });
    expect(await identifyKey("ro-1", config)).toEqual({ kind: "read_only", fingerprint: fingerprint("ro-1") });
    expect(fingerprint("ro-1")).toMatch(/^[0-9a-f]{32}$/);
    expect(await identifyKey("full-", config)).toBeNull();
    expect(await identifyKey("", config)).toBeNull();
    expect(await identifyKey(undefined, config)).toBeNull();
    expect(await identifyKey("x", { SERVICE_API_KEYS: [], SERVICE_READ_ONLY_API_KEYS: [] })).toBeNull();
  });

  it("takes a key of up to 256 characters and refuses a longer one", async () => {
    const long = { SERVICE_API_KEYS: [LONGEST, `${LONGEST}k`], SERVICE_READ_ONLY_API_KEYS: [] };
    expect((await identifyKey(LONGEST, long))?.kind).toBe("full");
    expect(await identifyKey(`${LONGEST}k`, long)).toBeNull();
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
