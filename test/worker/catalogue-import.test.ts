import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertImport, settleLine } from "../../src/db/repositories/catalogue-imports";
import { buildDeps } from "../../src/deps";
import { readImportCsv } from "../../src/domain/catalogue-import";
import type { ImportSchema } from "../../src/routes/catalogue/import-schema";
import { addItem } from "../../src/services/catalogue/additions/add-assets";
import { LOST_AFTER_MS, resumeImports } from "../../src/services/catalogue/imports/resume-imports";
import { WORLD, type WorldInstrument } from "../../tools/sandbox/world";
import { withDb } from "../helpers/db";
import { call } from "../helpers/worker-http";

type Import = z.infer<typeof ImportSchema>;

/**
 * The bulk import (issue 43, item 6): lines recorded in Postgres, worked through the
 * `catalogue-import` queue, watched by GET /assets/import/{id}; lines whose messages were lost are
 * sent again by the resume job, and nothing settled is worked twice. The world instruments here
 * (from index 2000 on) are this file's own; none on NYSE Arca, whose three seed ETFs
 * test/worker/catalogue-refresh.test.ts counts as the whole venue.
 */
const at = "2026-11-25";

/** World instruments of this file: from index 2000, none listed on NYSE Arca. */
const OWN = WORLD.slice(2000, 2400).filter((w) => w.lines.every((l) => l.exchange !== "NYSEARCA"));

async function finished(id: number): Promise<Import> {
  const read = async () => (await call<Import>(`/assets/import/${id}?limit=0`, { at })).body;
  await expect.poll(async () => (await read()).status, { timeout: 90_000, interval: 500 }).toBe("finished");
  return read();
}

/** What the import should come to for world instruments: those traded only where the catalogue is not are refused. */
const expected = (ws: readonly WorldInstrument[]) => ({
  added: ws.filter((w) => w.lines.some((l) => !["WSE", "NSI", "FRA"].includes(l.exchange))).length,
  refused: ws.filter((w) => w.lines.every((l) => ["WSE", "NSI", "FRA"].includes(l.exchange))).length,
});

describe("POST /assets/import", () => {
  it("imports 100 CSV lines with 2 % unreadable: each line settled once, counted right, watched while it runs", async () => {
    const ws = OWN.slice(0, 98);
    const csv = ["isin,exchange", ...ws.map((w) => `${w.isin},`), "NOT-AN-ISIN!!,", "US0378331006,"].join("\n");
    const started = await call<Import>("/assets/import", { at, method: "POST", rawBody: csv, contentType: "text/csv" });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ lines: 100, ingest: false });
    expect(started.body.counts.refused).toBe(2);
    const done = await finished(started.body.id);
    const want = expected(ws);
    expect(done.counts).toEqual({ queued: 0, added: want.added, known: 0, refused: want.refused + 2, failed: 0 });
    // The unreadable lines, with why, by their line numbers in the file.
    const bad = await call<Import>(`/assets/import/${started.body.id}?outcome=refused&limit=1000`, { at });
    expect(bad.body.line_results.filter((l) => l.line > 99).map((l) => [l.line, l.reason])).toEqual([
      [100, "'NOT-AN-ISIN!!' is neither an ISIN nor a ticker of at most 10 characters"],
      [101, "US0378331006 is no ISIN: its check digit should be 5, not 6"],
    ]);
    // Every added instrument is in the catalogue once, with its listings once.
    const rows = await withDb((db) =>
      db.execute<{ n: number; listings: number }>(sql`
        SELECT count(DISTINCT a.id)::int AS n, count(l.id)::int AS listings
        FROM assets a JOIN listings l ON l.asset_id = a.id
        WHERE a.isin = ANY(${`{${ws.map((w) => w.isin).join(",")}}`}::text[]) AND a.added_via = 'import'`),
    );
    const supported = ws.flatMap((w) => w.lines).filter((l) => !["WSE", "NSI", "FRA"].includes(l.exchange));
    expect([rows.rows[0]?.n, rows.rows[0]?.listings]).toEqual([want.added, supported.length]);
  }, 120_000);

  it("finishes an import whose stack stopped mid-run: the lost lines are sent again, the settled ones never worked twice", async () => {
    const ws = OWN.slice(100, 150);
    const deps = buildDeps(env);
    try {
      const db = deps.db;
      // A stack that recorded the import, settled its first ten lines and stopped (its messages lost).
      const { id } = await insertImport(db, {
        lines: readImportCsv(ws.map((w) => w.isin).join("\n")),
        digest: "a stack that stopped",
        ingest: false,
        requestedBy: "full",
        at: new Date(Date.now() - LOST_AFTER_MS - 60_000),
      });
      for (let line = 1; line <= 10; line++)
        await settleLine(db, {
          importId: id,
          line,
          outcome: "known",
          reason: "settled before the stop",
          isin: null,
          at: new Date(),
        });
      // Nothing has moved in it since the stop.
      await db.execute(sql`
        UPDATE catalogue_import_lines SET updated_at = ${new Date(Date.now() - LOST_AFTER_MS - 60_000).toISOString()}
        WHERE import_id = ${id}`);

      // The started stack's five-minute trigger sends what the database says is left.
      const resumed = await resumeImports(deps);
      expect(resumed.lines).toBe(40);
      expect((await resumeImports(deps)).lines).toBe(0);
      const done = await finished(id);
      const rest = expected(ws.slice(10));
      expect(done.counts).toEqual({ queued: 0, added: rest.added, known: 10, refused: rest.refused, failed: 0 });
      const settledBefore = await db.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM catalogue_import_lines
        WHERE import_id = ${id} AND line <= 10 AND reason = 'settled before the stop' AND attempts = 1`);
      expect(settledBefore.rows[0]?.n).toBe(10);
    } finally {
      await deps.close();
    }
  }, 120_000);

  it("finishes an import once when its last two lines are settled at once", async () => {
    const deps = buildDeps(env);
    try {
      const db = deps.db;
      for (let round = 0; round < 5; round++) {
        const { id } = await insertImport(db, {
          lines: readImportCsv(
            OWN.slice(300, 302)
              .map((w) => w.isin)
              .join("\n"),
          ),
          digest: `two consumers at the end, round ${round}`,
          ingest: false,
          requestedBy: "full",
          at: new Date(),
        });
        const settle = (line: number) =>
          settleLine(db, { importId: id, line, outcome: "refused", reason: "a test", isin: null, at: new Date() });
        const finishedBy = await Promise.all([settle(1), settle(2)]);
        // Exactly one of the two saw the other's line settled and closed the import.
        expect(finishedBy.filter(Boolean)).toHaveLength(1);
        const head = await db.execute<{ finished: boolean }>(sql`
          SELECT finished_at IS NOT NULL AS finished FROM catalogue_imports WHERE id = ${id}`);
        expect(head.rows).toEqual([{ finished: true }]);
      }
    } finally {
      await deps.close();
    }
  });

  it("counts a line added when the delivery that stored its instrument stopped before settling it, and a repeated line once", async () => {
    const [first, second] = OWN.slice(150).filter((w) => expected([w]).added === 1);
    if (!first || !second) throw new Error("the world has too few instruments for this test");
    const deps = buildDeps(env);
    try {
      const db = deps.db;
      const long = new Date(Date.now() - LOST_AFTER_MS - 60_000);
      const { id } = await insertImport(db, {
        lines: readImportCsv([first.isin, second.isin, first.isin].join("\n")),
        digest: "a stack that stopped after a store",
        ingest: false,
        requestedBy: "full",
        at: long,
      });
      // The first delivery of line 1 stored its instrument, as the consumer does, and the stack
      // stopped before the line was settled.
      const stored = await addItem(deps, { via: "import", importId: id }, { isin: first.isin });
      expect(stored.status).toBe("added");
      expect(stored.found.asset.addedByImport).toBe(id);
      await db.execute(
        sql`UPDATE catalogue_import_lines SET updated_at = ${long.toISOString()} WHERE import_id = ${id}`,
      );

      expect((await resumeImports(deps)).lines).toBe(3);
      const done = await finished(id);
      // Two instruments added (the first by its redelivered line), the repeated line known.
      expect(done.counts).toEqual({ queued: 0, added: 2, known: 1, refused: 0, failed: 0 });
      const byIsin = await db.execute<{ isin: string; outcome: string }>(sql`
        SELECT isin, outcome FROM catalogue_import_lines WHERE import_id = ${id} ORDER BY outcome, isin COLLATE "C"`);
      const added = [first.isin, second.isin].sort();
      expect(byIsin.rows.map((r) => [r.outcome, r.isin])).toEqual([
        ["added", added[0]],
        ["added", added[1]],
        ["known", first.isin],
      ]);
    } finally {
      await deps.close();
    }
  }, 120_000);
});
