import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createApp } from "../../src/app";
import { TickerParam } from "../../src/routes/params";
import { contractProblem } from "../helpers/contract";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
import { adversarialText, describeRequest, type FuzzRequest, requestFor } from "./arbitraries";
import { documentedOperations } from "./openapi";

/** At least this many requests per run, spread evenly over the documented operations. */
const REQUESTS = Number(inject("fuzzRequests"));
/** The deadline the fuzzed app is built with; no answer may come later than this plus its rendering. */
const DEADLINE_MS = 5_000;
const GRACE_MS = 1_000;

const seed = inject("fuzzSeed");
const app = createApp({ deadlineMs: DEADLINE_MS });
const tally = {
  sent: 0,
  s2xx: 0,
  s4xx: 0,
  s5xx: 0,
  slowest: 0,
  byStatus: new Map<number, number>(),
  /** Milliseconds spent per operation, to show where a slow run went. */
  msByOperation: new Map<string, number>(),
};

const background: Promise<void>[] = [];

async function send(req: FuzzRequest): Promise<{ status: number; text: string; type: string; ms: number }> {
  const headers = new Headers({ "x-api-key": FULL_KEY });
  if (req.contentType) headers.set("content-type", req.contentType);
  const ctx = createExecutionContext();
  const started = performance.now();
  const res = await app.fetch(
    new Request(`http://svc${req.path}`, { method: req.method, headers, body: req.body }),
    env,
    ctx,
  );
  const text = await res.text();
  const ms = performance.now() - started;
  // Background work (usage entries, closing the request's pool) settles in batches, not one by one:
  // waiting for each would make the run as slow as its slowest cleanup times ten thousand.
  background.push(waitOnExecutionContext(ctx));
  if (background.length >= 100) await Promise.all(background.splice(0));
  return { status: res.status, text, type: res.headers.get("content-type") ?? "", ms };
}

/** What every answer must be, whatever was asked: no 5xx, a JSON error with its two fields, in time. */
function check(req: FuzzRequest, res: { status: number; text: string; type: string; ms: number }): void {
  tally.sent += 1;
  tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
  tally.slowest = Math.max(tally.slowest, res.ms);
  const shown = `${describeRequest(req)} → ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) {
    tally.s5xx += 1;
    throw new Error(`5xx: ${shown}`);
  }
  // The suite's key has a limit no run reaches: a 429 means the nets stopped testing the routes.
  if (res.status === 429) throw new Error(`rate limited, the fuzzer no longer reaches the routes: ${shown}`);
  if (res.ms > DEADLINE_MS + GRACE_MS) throw new Error(`answered after ${Math.round(res.ms)} ms: ${shown}`);
  if (res.status >= 400) {
    tally.s4xx += 1;
    if (!res.type.includes("application/json")) throw new Error(`4xx without JSON: ${shown}`);
    const body = JSON.parse(res.text) as { error?: unknown; message?: unknown };
    if (typeof body.error !== "string" || typeof body.message !== "string") {
      throw new Error(`4xx without error and message: ${shown}`);
    }
  } else tally.s2xx += 1;
  // Whatever the status, the answer is one the document declares for the route, shape included.
  const json: unknown = res.type.includes("json") ? JSON.parse(res.text) : undefined;
  const problem = contractProblem(req.method, new URL(`http://svc${req.path}`).pathname, res.status, res.type, json);
  if (problem) throw new Error(`contract ${problem}: ${shown}`);
}

describe("every documented operation, fuzzed", async () => {
  const ops = await documentedOperations();
  afterAll(async () => {
    await Promise.all(background.splice(0));
    // Streams the fuzzer started (POST /realtime/subscribe with catalogue tickers) stop with it.
    const status = await send({ method: "GET", path: "/realtime/status" });
    const streamed = (JSON.parse(status.text) as { tickers?: string[] }).tickers ?? [];
    for (const t of streamed) await send({ method: "DELETE", path: `/realtime/subscribe/${encodeURIComponent(t)}` });
    const statuses = [...tally.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    const costliest = [...tally.msByOperation]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 5)
      .map(([op, ms]) => `${op} ${Math.round(ms / 1000)} s`)
      .join(", ");
    console.log(
      `fuzz: ${tally.sent} requests over ${ops.length} operations, seed ${seed}: ${tally.s5xx} × 5xx, ${tally.s4xx} × 4xx, ${tally.s2xx} × 2xx (${statuses}); slowest ${Math.round(tally.slowest)} ms; costliest operations: ${costliest}`,
    );
  });

  const runs = Math.ceil(REQUESTS / ops.length);
  it.each(ops.map((o) => [`${o.method} ${o.template}`, o] as const))(
    "%s",
    async (_name, op) => {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (req) => {
          const res = await send(req);
          const name = `${op.method} ${op.template}`;
          tally.msByOperation.set(name, (tally.msByOperation.get(name) ?? 0) + res.ms);
          check(req, res);
        }),
        { seed: seed + ops.indexOf(op), numRuns: runs, endOnFailure: true },
      );
    },
    600_000,
  );

  it("sent at least the promised number of requests", () => {
    expect(tally.sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(tally.s5xx).toBe(0);
  });
});

/**
 * WS /ws/realtime/{ticker}, not in the document: adversarial tickers and key placements, with and
 * without the upgrade. Every answer is a 426 (no upgrade), an accepted socket the service closes
 * itself (1008 for a key or ticker it refuses, 1000 for a read-only key on a ticker nobody streams),
 * or, for a segment the URL resolves away, what an unknown route answers; never a 5xx.
 */
describe("the WebSocket route, fuzzed", () => {
  // The one handshake that starts a stream (a full-access key in a header, a well-formed ticker) is
  // the worker tests'; here every other one, each closed by the service at once.
  const socketRequest = fc
    .record({
      ticker: adversarialText,
      key: fc.constantFrom<string | null>(null, "not-a-key", READ_ONLY_KEY, FULL_KEY),
      place: fc.constantFrom("header", "token", "api_key", "key"),
      upgrade: fc.boolean(),
    })
    .filter((r) => !(r.key === FULL_KEY && r.place === "header" && TickerParam.safeParse(r.ticker).success));

  it("answers every handshake with a 426 or a socket it closes, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(socketRequest, async (r) => {
        // A lone surrogate cannot be encoded: sent as the invalid UTF-8 it would be.
        const encoded = (() => {
          try {
            return encodeURIComponent(r.ticker);
          } catch {
            return "%ED%A0%80";
          }
        })();
        const segment = encoded.slice(0, 16_000) || "%20";
        const query = r.key !== null && r.place !== "header" ? `?${r.place}=${encodeURIComponent(r.key)}` : "";
        const headers: Record<string, string> = r.upgrade ? { Upgrade: "websocket" } : {};
        if (r.key !== null && r.place === "header") headers["X-API-KEY"] = r.key;
        const res = await app.request(`/ws/realtime/${segment}${query}`, { headers }, env);
        const where = `${JSON.stringify(r).slice(0, 200)}: ${res.status}`;
        expect(res.status, where).toBeLessThan(500);
        // A segment the URL resolves away ("." or "..") reaches no route: asked for a key, or a JSON 404.
        if (segment === "." || segment === "..") {
          expect([401, 404], where).toContain(res.status);
          expect(((await res.json()) as { error: string }).error, where).toMatch(/^(Unauthorized|Not found)$/);
          return;
        }
        if (!r.upgrade) {
          expect(res.status, where).toBe(426);
          return;
        }
        expect(res.status, where).toBe(101);
        const ws = (res as Response & { webSocket: WebSocket | null }).webSocket;
        const closed = new Promise<number>((resolve) => ws?.addEventListener("close", (ev) => resolve(ev.code)));
        (ws as WebSocket & { accept(): void }).accept();
        expect([1000, 1008], where).toContain(await closed);
      }),
      { seed, numRuns: 300, endOnFailure: true },
    );
  }, 120_000);
});
