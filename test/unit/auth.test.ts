import { createHash } from "node:crypto";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { clientAddress, extractKey, identifyKey } from "../../src/auth";
import { answeringRoute } from "../../src/middleware/answering-route";
import { RouteAccess } from "../../src/routes/access";

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

  it("bounds lookups by an IPv4 address, or by an IPv6 address's /64", () => {
    const of = (ip: string) => clientAddress(new Headers({ "cf-connecting-ip": ip }));
    expect(of("203.0.113.7")).toBe("203.0.113.7");
    expect(of("2001:db8:0:7::1")).toBe("2001:db8:0:7::/64");
    expect(of("2001:0DB8:0000:0007:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:0:7::/64");
    expect(of("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(of("::1")).toBe("0:0:0:0::/64");
    expect(clientAddress(new Headers())).toBeUndefined();
  });

  it("reads who may call each route from the route's own definition, and closes an unknown write", () => {
    const routes = new RouteAccess();
    routes.learn(createApp());
    expect(routes.of("GET", "/health")).toBe("public");
    expect(routes.of("HEAD", "/health")).toBe("public");
    expect(routes.of("GET", "/eod/:ticker")).toBe("any");
    expect(routes.of("POST", "/cache/clear")).toBe("full");
    expect(routes.of("POST", "/technical/batch")).toBe("any");
    expect(routes.of("POST", "/dcf/:ticker")).toBe("any");
    expect(routes.of("POST", "/keys")).toBe("admin");
    expect(routes.of("GET", "/ws/realtime/:ticker")).toBe("public");
    expect(routes.of("PUT", "/something/new")).toBe("full");
    expect(routes.of("GET", "/something/new")).toBe("any");
  });

  it("names a request by the route that answers it, whatever else matches its path", async () => {
    const app = new Hono();
    const seen: string[] = [];
    app.use("*", async (c, next) => {
      await next();
      seen.push(answeringRoute(c));
    });
    app.get("/news/feed", (c) => c.text("feed"));
    app.get("/news/:ticker", (c) => c.text("ticker"));
    expect(await (await app.request("/news/feed")).text()).toBe("feed");
    expect(await (await app.request("/news/AAPL")).text()).toBe("ticker");
    await app.request("/nowhere");
    expect(seen).toEqual(["/news/feed", "/news/:ticker", ""]);
  });
});
