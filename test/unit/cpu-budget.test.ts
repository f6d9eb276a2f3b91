import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

/**
 * What one request can make the service spend before any database or provider, measured as CPU
 * time in Node (`process.cpuUsage`, not wall time): a hostile path segment must cost a length check,
 * not a pattern that grows with its square. Run with and without a key (a request with none is
 * refused before its parameters are read; one with a read-only key reaches the route's validation).
 */
const READ_ONLY = "cpu-budget-read-only-key-0123456789abcdef";
const ENV = { SERVICE_READ_ONLY_API_KEYS: READ_ONLY, SERVICE_API_KEYS: "cpu-budget-full-key-0123456789abcdefghij" };
/**
 * 16,000 characters: letters ending in a character no ticker has is what a backtracking pattern of
 * the old shape (`^[..]*[A-Za-z0-9][..]*$`) spent a time growing with the square of on.
 */
const SEGMENTS = [`${"A".repeat(15_999)}!`, `${"-".repeat(15_999)}!`, "A".repeat(16_000), ".".repeat(16_000)];
const BUDGET_MS = 5;

/** Lets what a request left running after its answer finish. */
const settle = () => new Promise((r) => setTimeout(r, 5));

async function cpuMs<T>(work: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const before = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}

describe("a 16,000-character path segment", () => {
  const app = createApp();
  // Every route with a ticker or symbol in its path, whatever its method. The WebSocket route cannot
  // answer in Node (a 101 is the Workers runtime's): its key check comes first (test/worker), and its
  // wall time through wrangler dev is `npm run bench:long-ticker`'s.
  const routes = app.routes
    .filter((r) => r.method !== "ALL" && /:(ticker|symbol)\b/.test(r.path) && !r.path.startsWith("/ws/"))
    .map((r) => `${r.method} ${r.path}`);
  const unique = [...new Set(routes)];

  it("is found on the routes that take one", () => {
    expect(unique).toContain("GET /eod/:ticker");
    expect(unique).toContain("GET /ticker/:symbol/history");
    expect(unique).toContain("POST /dcf/:ticker");
    expect(unique).toContain("DELETE /realtime/subscribe/:ticker");
    expect(unique.length).toBeGreaterThan(15);
  });

  it.each(unique)("%s costs under 5 ms of CPU, with a read-only key and with none", async (name) => {
    const [method = "GET", route = ""] = name.split(" ");
    const body = method === "POST" ? "{}" : undefined;
    const request = (path: string, headers: Record<string, string>) =>
      app.request(
        path,
        { method, body, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) } },
        ENV,
      );
    // Warm: the first request of a route builds its validators; its work after the answer (usage,
    // the database handle's close) settles before anything is measured, since the process's CPU is.
    await (await request(route.replace(/:\w+/g, "AAPL"), { "X-API-KEY": READ_ONLY })).arrayBuffer();
    await settle();
    for (const segment of SEGMENTS) {
      const path = route.replace(/:(ticker|symbol)\b/, segment).replace(/:\w+/g, "X");
      const withKey: Record<string, string>[] = [{ "X-API-KEY": READ_ONLY }, {}];
      for (const headers of withKey) {
        // The least of five requests: the process's CPU counts its garbage collector and compiler
        // too, which may land in any one request on a busy machine; a pattern that grows with the
        // square of the segment costs its ~200 ms in every one of them.
        const runs: number[] = [];
        for (let i = 0; i < 5; i++) {
          const { ms, value: res } = await cpuMs(async () => {
            const answer = await request(path, headers);
            await answer.arrayBuffer();
            return answer;
          });
          // Refused as it should be: a 400 with a key (403 on a full-access route), a 401 without.
          expect([400, 401, 403], `${name} ${res.status}`).toContain(res.status);
          runs.push(ms);
          await settle();
        }
        expect(Math.min(...runs), `${name} with ${Object.keys(headers).length ? "a key" : "no key"}`).toBeLessThan(
          BUDGET_MS,
        );
      }
    }
  });
});
