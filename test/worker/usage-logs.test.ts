import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { desc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DbHandle } from "../../src/db/client";
import { usageLogs } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import { queueSink } from "../../src/services/usage/record-usage";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** The rows of `route` written since `since`, once the queue's consumer has written at least one. */
async function waitForRow(db: DbHandle, since: Date, route: string) {
  const fresh = async () =>
    (
      await db.db.select().from(usageLogs).where(eq(usageLogs.route, route)).orderBy(desc(usageLogs.id)).limit(5)
    ).filter((r) => r.createdAt >= since);
  // The queue delivers a batch within its max_batch_timeout (2 s).
  await expect.poll(async () => (await fresh()).length, { timeout: 10_000, interval: 200 }).toBeGreaterThan(0);
  return fresh();
}

describe("usage logging", () => {
  it("writes one row per request with the route template, key kind, status and latency", async () => {
    const db = buildDeps(env).db;
    try {
      const since = new Date(Date.now() - 1000);
      const res = await call("/assets/by-isin/FR0000121014", { key: READ_ONLY_KEY });
      expect(res.status).toBe(200);
      const rows = await waitForRow(db, since, "/assets/by-isin/:isin");
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ method: "GET", keyKind: "read_only", status: 200, ticker: null });
      expect(rows[0]?.latencyMs).toBeGreaterThanOrEqual(0);

      const denied = await call("/listings?ticker=MC.PA", { key: null });
      expect(denied.status).toBe(401);
      const deniedRows = await waitForRow(db, since, "/listings");
      expect(deniedRows.some((r) => r.status === 401 && r.keyKind === "none")).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe("usage logging of hostile paths", () => {
  it("writes the row of a request whose path parameter carries a NUL, without the NUL", async () => {
    const db = buildDeps(env).db;
    try {
      const since = new Date(Date.now() - 1000);
      const res = await call("/eod/NU%00LL?period=1y");
      expect(res.status).toBe(400);
      const rows = await waitForRow(db, since, "/eod/:ticker");
      expect(rows.map((r) => [r.ticker, r.status])).toContainEqual(["NULL", 400]);
    } finally {
      await db.close();
    }
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
    const db = buildDeps(env).db;
    try {
      return (await db.db.select({ id: usageLogs.entryId }).from(usageLogs).where(inArray(usageLogs.entryId, ids)))
        .length;
    } finally {
      await db.close();
    }
  };

  it("writes a batch in one go, writes nothing twice when it comes again, and drops what is not an entry", async () => {
    const ids = Array.from({ length: 100 }, () => crypto.randomUUID());
    const messages = ids.map((id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: entry(id) }));
    const poison = { id: "bad", timestamp: new Date(), attempts: 1, body: { not: "an entry" } };
    for (let delivery = 1; delivery <= 2; delivery++) {
      const batch = createMessageBatch<unknown>("usage-logs", [...messages, poison]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result).toMatchObject({ ackAll: true, retryBatch: { retry: false } });
      expect(await rowsOf(ids)).toBe(100);
    }
  });

  it("carries 250 entries recorded at once in a few sends, and the consumer writes each once", async () => {
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    const sink = queueSink(env.USAGE_QUEUE);
    await Promise.all(ids.map((id) => sink.record(entry(id))));
    await expect.poll(() => rowsOf(ids), { timeout: 15_000, interval: 250 }).toBe(250);
  });

  it("retries the whole batch when the database cannot be reached: nothing is lost", async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const batch = createMessageBatch(
      "usage-logs",
      ids.map((id, i) => ({ id: `r${i}`, timestamp: new Date(), attempts: 1, body: entry(id) })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, { ...env, NEON_WS_PROXY: "127.0.0.1:9/v2" }, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result).toMatchObject({ ackAll: false, retryBatch: { retry: true } });
    expect(await rowsOf(ids)).toBe(0);
  });
});
