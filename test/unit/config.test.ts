import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema, loadConfig } from "../../src/env";

/** Keys of the shortest length the service takes (32 characters). */
const [A, B, C] = ["a", "b", "c"].map((k) => k.repeat(32));

describe("Config", () => {
  it("has a default for every setting", () => {
    const c = loadConfig({});
    expect(c.SERVICE_API_KEYS).toEqual([]);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.DELAYED_PROVIDER_BASE_URL).toBe("https://query2.finance.yahoo.com");
    expect(c.STREAM_PROVIDER_WS_URL).toBe("wss://data.tradingview.com/socket.io/websocket");
    expect(c.TECHNICAL_DEFAULT_LIMIT).toBe(500);
    expect(c.TECHNICAL_MAX_BATCH_TICKERS).toBe(20);
    expect(c.TECHNICAL_MAX_BATCH_INDICATORS).toBe(10);
    expect(c.TECHNICAL_CACHE_ENABLED).toBe(true);
    expect(c.NEWS_MAX_LIMIT).toBe(100);
    expect(c.NEWS_CACHE_TTL).toBe(1800);
    expect(c.NEWS_DEDUP_SIMILARITY).toBe(0.85);
    expect(c.DCF_RISK_FREE_RATE).toBe("0.042");
    expect(c.ALERT_SUCCESS_RATE_WARNING).toBe(0.85);
    expect(c.ALERT_SUCCESS_RATE_CRITICAL).toBe(0.7);
  });

  it("parses lists, booleans, numbers and trims URLs", () => {
    const c = loadConfig({
      SERVICE_API_KEYS: ` ${A}, ${B} ,,${C}`,
      TECHNICAL_CACHE_ENABLED: "false",
      TECHNICAL_DEFAULT_LIMIT: "250",
      DELAYED_PROVIDER_BASE_URL: "http://127.0.0.1:9000/",
      UPSTASH_REDIS_REST_URL: "  ",
      TICKER_STREAM: { not: "a string" } as unknown as Env["TICKER_STREAM"],
    });
    expect(c.SERVICE_API_KEYS).toEqual([A, B, C]);
    expect(c.TECHNICAL_CACHE_ENABLED).toBe(false);
    expect(c.TECHNICAL_DEFAULT_LIMIT).toBe(250);
    expect(c.DELAYED_PROVIDER_BASE_URL).toBe("http://127.0.0.1:9000");
    expect(c.UPSTASH_REDIS_REST_URL).toBeUndefined();
  });

  it("refuses values of the wrong shape, naming the setting", () => {
    expect(() => loadConfig({ TECHNICAL_DEFAULT_LIMIT: "many" })).toThrow(/TECHNICAL_DEFAULT_LIMIT/);
    expect(() => loadConfig({ NEWS_DEDUP_SIMILARITY: "1.5" })).toThrow(/NEWS_DEDUP_SIMILARITY/);
    expect(() => loadConfig({ DCF_RISK_FREE_RATE: "4%" })).toThrow(/DCF_RISK_FREE_RATE/);
  });

  it("refuses to start with a key under 32 characters, naming the setting but never the key", () => {
    const short = "guessable-key-31-characters-xyz";
    expect(short).toHaveLength(31);
    for (const setting of ["SERVICE_API_KEYS", "SERVICE_READ_ONLY_API_KEYS"]) {
      const attempt = () => loadConfig({ [setting]: `${A},${short}` });
      expect(attempt).toThrow(new RegExp(`${setting}: a key is at least 32 characters`));
      expect(attempt).not.toThrow(new RegExp(short));
    }
    expect(loadConfig({ SERVICE_API_KEYS: `${short}z` }).SERVICE_API_KEYS).toEqual([`${short}z`]);
  });

  it("refuses the local-only settings away from a local stack", () => {
    const neon = "postgres://owner:pw@ep-example.eu-central-1.aws.neon.tech/neondb";
    // On this machine, all of them are taken.
    const local = loadConfig({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      NEON_WS_PROXY: "127.0.0.1:4444/v2",
      NEON_HTTP_ENDPOINT: "http://localhost:4444/sql",
      CLOCK_PINNED_AT: "2026-11-25T15:00:00Z",
      BENCH_ROUTES: "true",
    });
    expect(local.BENCH_ROUTES).toBe(true);
    expect(loadConfig({ CLOCK_PINNED_AT: "2026-11-25T15:00:00Z" }).CLOCK_PINNED_AT).toBe("2026-11-25T15:00:00Z");
    // A proxy elsewhere, or a pinned clock or the benchmark routes beside a database elsewhere, is refused at start.
    expect(() => loadConfig({ NEON_WS_PROXY: "proxy.example.com:443/v2" })).toThrow(/NEON_WS_PROXY: local stacks only/);
    expect(() => loadConfig({ NEON_HTTP_ENDPOINT: "https://10.0.0.5/sql" })).toThrow(
      /NEON_HTTP_ENDPOINT: local stacks only/,
    );
    expect(() => loadConfig({ DATABASE_URL: neon, CLOCK_PINNED_AT: "2026-11-25T15:00:00Z" })).toThrow(
      /CLOCK_PINNED_AT: local stacks only/,
    );
    expect(() => loadConfig({ DATABASE_URL: neon, BENCH_ROUTES: "true" })).toThrow(/BENCH_ROUTES: local stacks only/);
    // Nor does the refusal print the database URL.
    expect(() => loadConfig({ DATABASE_URL: neon, BENCH_ROUTES: "true" })).not.toThrow(/neon\.tech/);
  });

  it("is listed setting by setting in .dev.vars.example", () => {
    const example = readFileSync(new URL("../../.dev.vars.example", import.meta.url), "utf8");
    const listed = new Set([...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => String(m[1])));
    expect([...Object.keys(configSchema.shape)].filter((k) => !listed.has(k))).toEqual([]);
    expect([...listed].filter((k) => !(k in configSchema.shape))).toEqual([]);
  });
});
