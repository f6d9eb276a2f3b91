import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { FULL_KEY } from "../helpers/keys";
import { documentedOperations, type Operation } from "./openapi";
import { resetState, snapshotDatabase } from "./state";

const AT_ONCE = 20;

interface Answer {
  status: number;
  body: unknown;
}

/**
 * The operation's documented example request: path parameters and required query parameters from
 * their examples, plus the operation's `x-example-query`, and the body schema's example; the tickers
 * it touches (those named, and its `x-touches`) are what the reset puts back.
 */
function exampleRequest(op: Operation): { path: string; init: RequestInit; tickers: string[] } {
  const tickers: string[] = [...op.touches];
  const value = (name: string) => {
    const p = op.parameters.find((x) => x.name === name);
    const v = p?.schema.example ?? p?.schema.default;
    if (v === undefined) throw new Error(`${op.method} ${op.template}: document an example for ${name}`);
    if (/ticker|symbol|isin/.test(name)) tickers.push(String(v));
    return String(v);
  };
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
  const query = new URLSearchParams(op.exampleQuery);
  for (const [k, v] of query) if (/ticker|symbol|isin/.test(k)) tickers.push(v);
  for (const p of op.parameters.filter((x) => x.in === "query" && x.required)) query.set(p.name, value(p.name));
  let body: string | undefined;
  if (op.body) {
    const example = op.body.example;
    if (example === undefined) throw new Error(`${op.method} ${op.template}: document an example body`);
    for (const [k, v] of Object.entries(example as Record<string, unknown>)) {
      if (/ticker/.test(k)) tickers.push(...(Array.isArray(v) ? v.map(String) : [String(v)]));
    }
    body = JSON.stringify(example);
  }
  const q = query.toString();
  return {
    path: `${path}${q ? `?${q}` : ""}`,
    init: { method: op.method, headers: { "x-api-key": FULL_KEY, "content-type": "application/json" }, body },
    tickers,
  };
}

const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
/**
 * What is drawn at random by design: a managed key (`mds_…`, or its first characters), its id
 * (`key_…`), a realtime ticket (`tkt_…`, single-use: each request gets its own).
 */
const RANDOM = /\b(mds_[0-9a-f]{4,40}|key_[0-9a-f]{16}|tkt_[0-9a-f]{48})\b/g;

/**
 * An answer without what differs between two identical requests: the instants they were served at,
 * and what is drawn at random (a new key, a ticket).
 */
function comparable(value: unknown): unknown {
  if (typeof value === "string" && INSTANT.test(value)) return "<instant>";
  if (typeof value === "string") return value.replace(RANDOM, "<random>");
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, /(_at|^timestamp|^ts)$/.test(k) ? "<instant>" : comparable(v)]),
    );
  }
  return value;
}

/**
 * One request to the Worker: its own handler, called with an execution context of the test's, and
 * the answer returned once the request's background work (`waitUntil`: an `x-background`
 * operation's work, a read's deferred caching or quote) is done, so the snapshot after it is the
 * request's whole effect. (Snapshots taken until two agree were not enough: on a busy machine a
 * canary run fetched its references for longer than the interval between two snapshots.)
 */
async function send(path: string, init: RequestInit): Promise<Answer> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://svc${path}`, init), env, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return {
    status: res.status,
    body: comparable(res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text),
  };
}

/** Operations that change something: every non-GET, and the reads documented with `x-writes` (they may ingest). */
function writes(op: Operation): boolean {
  return op.method !== "GET" || op.writes === true;
}

/**
 * What must exist before the operation's example makes sense: a DELETE of `/a/b/{id}` needs what the
 * POST of `/a/b` creates (its own example), by the usual REST convention; an operation may also
 * name a GET to run first (`x-precondition`, e.g. the enrichment a valuation reads).
 */
function preconditionOf(
  op: Operation,
  all: Operation[],
): { path: string; init: RequestInit; status: number } | undefined {
  if (op.precondition)
    return { path: op.precondition, init: { method: "GET", headers: { "x-api-key": FULL_KEY } }, status: 200 };
  if (op.method !== "DELETE") return undefined;
  const collection = op.template.replace(/\/\{\w+\}$/, "");
  const post = all.find((o) => o.method === "POST" && o.template === collection);
  // The POST answers as it documents (201 where it creates).
  return post ? { ...exampleRequest(post), status: post.exampleStatus ?? 200 } : undefined;
}

/** How long a catalogue refresh another net started may still be working in the background. */
const REFRESH_SETTLE_MS = 240_000;

/**
 * Waits until no catalogue refresh run is under way: the fuzzer may start one of the whole
 * catalogue, whose queue consumer goes on writing (bars, checks, verdicts) in the background, and
 * a snapshot taken meanwhile would count its writes as a request's.
 */
async function refreshesSettled(): Promise<void> {
  const until = Date.now() + REFRESH_SETTLE_MS;
  while (Date.now() < until) {
    const res = await send("/catalogue/refresh?limit=20", { method: "GET", headers: { "x-api-key": FULL_KEY } });
    const runs = ((res.body as { runs?: { status: string }[] }).runs ?? []) as { status: string }[];
    if (!runs.some((r) => r.status === "running")) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`a catalogue refresh was still running after ${REFRESH_SETTLE_MS / 1000} s`);
}

describe(`${AT_ONCE} identical requests at once have the effect of one`, async () => {
  const all = await documentedOperations();
  const ops = all.filter(writes);
  beforeAll(refreshesSettled, REFRESH_SETTLE_MS + 10_000);

  it("covers the write routes and the reads that may ingest", () => {
    const names = ops.map((o) => `${o.method} ${o.template}`);
    expect(names).toContain("POST /historical/ingest");
    expect(names).toContain("GET /eod/{ticker}");
  });

  it.each(ops.map((o) => [`${o.method} ${o.template}`, o] as const))("%s", async (_name, op) => {
    const { path, init, tickers } = exampleRequest(op);
    const pre = preconditionOf(op, all);
    const setUp = async () => {
      await resetState(tickers);
      if (!pre) return;
      const made = await send(pre.path, pre.init);
      expect(made.status, `precondition ${pre.init.method} ${pre.path}`).toBe(pre.status);
    };

    await setUp();
    const before = await snapshotDatabase();
    const single = await send(path, init);
    const afterOne = await snapshotDatabase();
    // The same request again: what a retry gets, and a retry changes nothing more.
    const repeated = await send(path, init);
    expect(await snapshotDatabase(), "a retry changed the database").toEqual(afterOne);

    await setUp();
    expect(await snapshotDatabase(), "the reset did not restore the state").toEqual(before);
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => send(path, init)));
    expect(await snapshotDatabase(), "twenty at once left another state than one").toEqual(afterOne);
    // Each concurrent answer is one that requests in sequence could have got: the first's or a repeat's.
    for (const a of answers) expect([single, repeated], JSON.stringify(a).slice(0, 400)).toContainEqual(a);
    // The documented example is a request that works (or answers what it documents on a fresh instance).
    expect(single.status, JSON.stringify(single).slice(0, 400)).toBe(op.exampleStatus ?? 200);
  });
});
