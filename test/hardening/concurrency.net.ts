import { beforeAll, describe, expect, it } from "vitest";
import { FULL_KEY } from "../helpers/keys";
import { documentedOperations, type Operation } from "./openapi";
import { exampleRequest, send } from "./requests";
import { resetState, snapshotDatabase } from "./state";

const AT_ONCE = 20;

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
    // Each concurrent answer is one that requests in sequence could have got: the first's or a repeat's,
    // or, for an operation that counts its calls, the 429 of a call past the count.
    const pastCount = (a: (typeof answers)[number]) => op.counted !== undefined && a.status === 429;
    for (const a of answers.filter((x) => !pastCount(x)))
      expect([single, repeated], JSON.stringify(a).slice(0, 400)).toContainEqual(a);
    if (op.counted !== undefined)
      expect(answers.filter((x) => !pastCount(x)).length, "more calls answered than counted").toBeLessThanOrEqual(
        op.counted,
      );
    // The documented example is a request that works (or answers what it documents on a fresh instance).
    expect(single.status, JSON.stringify(single).slice(0, 400)).toBe(op.exampleStatus ?? 200);
  });
});

/**
 * Different writes that meet at the edge: an ingestion beside a cleanup, a refresh run beside an
 * import, an addition beside its removal, a read that ingests beside a cache clear of its ticker.
 */
const PAIRS: readonly (readonly [string, string])[] = [
  ["POST /historical/ingest", "POST /database/cleanup"],
  ["POST /catalogue/refresh", "POST /assets/import"],
  ["POST /assets", "DELETE /assets/{isin}"],
  ["GET /eod/{ticker}", "POST /cache/clear/{ticker}"],
];

describe("different writes at once leave what one of their two orders leaves", async () => {
  const all = await documentedOperations();
  const named = (name: string) => {
    const op = all.find((o) => `${o.method} ${o.template}` === name);
    if (!op) throw new Error(`${name} is not documented`);
    return exampleRequest(op);
  };
  beforeAll(refreshesSettled, REFRESH_SETTLE_MS + 10_000);

  it.each(PAIRS)("%s beside %s", async (first, second) => {
    const [a, b] = [named(first), named(second)];
    const tickers = [...a.tickers, ...b.tickers];
    const inOrder = async (...requests: (typeof a)[]) => {
      await resetState(tickers);
      for (const r of requests) expect((await send(r.path, r.init)).status, r.path).toBeLessThan(500);
      return snapshotDatabase();
    };
    const orders = [await inOrder(a, b), await inOrder(b, a)];
    await resetState(tickers);
    const answers = await Promise.all([send(a.path, a.init), send(b.path, b.init)]);
    for (const x of answers) expect(x.status, JSON.stringify(x).slice(0, 400)).toBeLessThan(500);
    expect(orders, "the state of neither order").toContainEqual(await snapshotDatabase());
  });
});
