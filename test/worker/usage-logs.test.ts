import { env } from "cloudflare:workers";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DbHandle } from "../../src/db/client";
import { usageLogs } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

async function waitForRow(db: DbHandle, since: Date, route: string) {
  for (let i = 0; i < 50; i++) {
    const rows = await db.db
      .select()
      .from(usageLogs)
      .where(and(eq(usageLogs.route, route)))
      .orderBy(desc(usageLogs.id))
      .limit(5);
    const fresh = rows.filter((r) => r.createdAt >= since);
    if (fresh.length > 0) return fresh;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
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
