import { createExecutionContext, createMessageBatch, getQueueResult, type MessageBatchMessage } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { usageAnonymous, usageLogs } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import { directSink, queueSink } from "../../src/platform/usage-sink";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** The usage row of a request (its entry id is the request's X-Request-Id), once the queue's consumer has written it. */
async function rowOf(requestId: string | null) {
  const deps = buildDeps(env);
  try {
    const read = async () =>
      (
        await deps.db
          .select()
          .from(usageLogs)
          .where(eq(usageLogs.entryId, requestId ?? ""))
      )[0];
    // The queue delivers a batch within its max_batch_timeout (2 s).
    await expect.poll(read, { timeout: 10_000, interval: 200 }).toBeDefined();
    return await read();
  } finally {
    await deps.close();
  }
}

const deps = buildDeps(env);
afterAll(() => deps.close());

describe("usage logging", () => {
  it("writes one row per request with the route template, key kind, status and latency", async () => {
    const res = await call("/assets/by-isin/FR0000121014", { key: READ_ONLY_KEY });
    expect(res.status).toBe(200);
    const row = await rowOf(res.headers.get("x-request-id"));
    expect(row).toMatchObject({
      method: "GET",
      route: "/assets/by-isin/:isin",
      keyKind: "read_only",
      status: 200,
      ticker: null,
    });
    expect(row?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("names a request by the route that answered it, where another template matches its path too", async () => {
    // /news/feed is answered by its own route, though /news/{ticker} matches the path as well.
    const res = await call("/news/feed?limit=1", { key: READ_ONLY_KEY });
    expect(res.status).toBe(200);
    expect(await rowOf(res.headers.get("x-request-id"))).toMatchObject({ route: "/news/feed", ticker: null });
  });

  it("writes no row for a request without a valid key, only a count of such requests per route and status", async () => {
    const since = new Date(Date.now() - 1000);
    // A route no other test asks without a valid key (their keyless requests may land in this window).
    const route = "/exchanges";
    const keyless = async () => {
      const [row] = await deps.db
        .select({ n: sql<number>`coalesce(sum(${usageAnonymous.requests}), 0)::int` })
        .from(usageAnonymous)
        .where(
          and(eq(usageAnonymous.route, route), eq(usageAnonymous.status, 401), gte(usageAnonymous.windowStart, since)),
        );
      return row?.n ?? 0;
    };
    const ids: string[] = [];
    for (const key of [null, "an-unknown-key-of-forty-characters-000000"]) {
      const denied = await call("/exchanges", { key });
      expect(denied.status).toBe(401);
      ids.push(denied.headers.get("x-request-id") ?? "");
    }
    // The queue delivers within its max_batch_timeout (2 s); a keyed request's row comes the same way.
    const keyed = await call("/exchanges", { key: READ_ONLY_KEY });
    await rowOf(keyed.headers.get("x-request-id"));
    await expect.poll(keyless, { timeout: 10_000, interval: 200 }).toBe(2);
    expect(await deps.db.select().from(usageLogs).where(inArray(usageLogs.entryId, ids))).toEqual([]);
  });

  it("writes the row of a request whose path parameter carries a NUL, without the NUL", async () => {
    const res = await call("/eod/NU%00LL?period=1y");
    expect(res.status).toBe(400);
    expect(await rowOf(res.headers.get("x-request-id"))).toMatchObject({
      route: "/eod/:ticker",
      ticker: "NULL",
      status: 400,
    });
  });
});

describe("the usage queue's consumer", () => {
  const entry = (id: string) => ({
    id,
    method: "GET",
    route: "/__test/usage-queue",
    ticker: null,
    keyKind: "full" as const,
    status: 200,
    latencyMs: 3,
    createdAt: new Date(),
  });
  const rowsOf = async (ids: string[]) => {
    const deps = buildDeps(env);
    try {
      return (await deps.db.select({ id: usageLogs.entryId }).from(usageLogs).where(inArray(usageLogs.entryId, ids)))
        .length;
    } finally {
      await deps.close();
    }
  };

  /** Delivers `messages` as one batch, then again (a redelivery): acked each time, every id written once. */
  const deliverTwice = async (messages: MessageBatchMessage[], ids: string[]) => {
    for (let delivery = 1; delivery <= 2; delivery++) {
      const batch = createMessageBatch<unknown>("usage-logs", messages);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result).toMatchObject({ ackAll: true, retryBatch: { retry: false } });
      expect(await rowsOf(ids)).toBe(ids.length);
    }
  };

  it("writes the entries packed in a batch's messages, nothing twice when it comes again, and drops what is not an entry", async () => {
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    // Three messages as the producer sends them (at most 100 entries each); one entry in the last is no entry.
    const bodies = [ids.slice(0, 100), ids.slice(100, 200), ids.slice(200)].map((chunk) => ({
      entries: chunk.map(entry),
    }));
    bodies[2]?.entries.push({ not: "an entry" } as unknown as ReturnType<typeof entry>);
    await deliverTwice(
      bodies.map((body, i) => ({ id: `p${i}`, timestamp: new Date(), attempts: 1, body })),
      ids,
    );
  });

  it("writes messages of one entry each (as queued before entries were packed), and drops what is not an entry", async () => {
    const ids = Array.from({ length: 100 }, () => crypto.randomUUID());
    const messages = ids.map((id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: entry(id) }));
    const poison = { id: "bad", timestamp: new Date(), attempts: 1, body: { not: "an entry" } };
    await deliverTwice([...messages, poison], ids);
  });

  it("carries 250 entries recorded at once through the batching producer, and the consumer writes each once", async () => {
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    const sink = queueSink(
      env.USAGE_QUEUE,
      directSink(() => null),
    );
    await Promise.all(ids.map((id) => sink.record(entry(id))));
    await expect.poll(() => rowsOf(ids), { timeout: 15_000, interval: 250 }).toBe(250);
  });

  it("adds the counts of keyless requests a message carries once, however often it comes", async () => {
    const batchId = crypto.randomUUID();
    const route = `/__test/keyless-${batchId.slice(0, 8)}`;
    const windowStart = new Date();
    const body = {
      entries: [],
      anonymous: [
        { batch: batchId, route, status: 401, requests: 7, windowStart },
        { batch: batchId, route, status: 200, requests: 3, windowStart },
      ],
    };
    for (let delivery = 1; delivery <= 2; delivery++) {
      const batch = createMessageBatch<unknown>("usage-logs", [
        { id: `a${delivery}`, timestamp: new Date(), attempts: 1, body },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      expect(await getQueueResult(batch, ctx)).toMatchObject({ ackAll: true });
      const rows = await deps.db
        .select({ status: usageAnonymous.status, requests: usageAnonymous.requests })
        .from(usageAnonymous)
        .where(eq(usageAnonymous.route, route))
        .orderBy(usageAnonymous.status);
      expect(rows).toEqual([
        { status: 200, requests: 3 },
        { status: 401, requests: 7 },
      ]);
    }
  });

  it("retries the whole batch when the database cannot be reached: nothing is lost", async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const batch = createMessageBatch(
      "usage-logs",
      ids.map((id, i) => ({ id: `r${i}`, timestamp: new Date(), attempts: 1, body: entry(id) })),
    );
    const ctx = createExecutionContext();
    await worker.queue(
      batch,
      {
        ...env,
        // A database of its own whose endpoints are closed: the shared one's are left as they are.
        DATABASE_URL: "postgres://postgres@db-down.invalid:5432/test",
        NEON_HTTP_ENDPOINT: "http://127.0.0.1:9/sql",
        NEON_WS_PROXY: "127.0.0.1:9/v2",
      },
      ctx,
    );
    const result = await getQueueResult(batch, ctx);
    expect(result).toMatchObject({ ackAll: false, retryBatch: { retry: true } });
    expect(await rowsOf(ids)).toBe(0);
  });
});
