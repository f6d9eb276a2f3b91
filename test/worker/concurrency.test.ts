import { beforeAll, describe, expect, inject, it } from "vitest";
import type { EodAnswer, IngestAnswer } from "../../src/routes/eod/schema";
import { resetTickers, simRequests, storedBars } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

const delta = (after: Record<string, number>, before: Record<string, number>, key: string) =>
  (after[key] ?? 0) - (before[key] ?? 0);

describe("concurrent first requests for one fresh listing", () => {
  beforeAll(() => resetTickers("ENEL.MI", "ENI.MI"));

  it("50 concurrent GET /eod on a fresh ticker: 50 identical answers, one provider fetch, each bar stored once", async () => {
    const before = await simRequests(yahoo);
    const answers = await Promise.all(Array.from({ length: 50 }, () => call<EodAnswer>("/eod/ENEL.MI?period=1y")));
    const after = await simRequests(yahoo);

    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const first = answers[0]?.body;
    expect(first?.count).toBeGreaterThan(245);
    for (const a of answers) expect(a.body.data).toEqual(first?.data);
    // Those that waited for the ingestion answer as the one that ran it; one that came after it
    // finished found the bars stored (spec: data_source is "database" then).
    const sources = new Set(answers.map((a) => a.body.data_source));
    expect(sources.has("delayed_provider")).toBe(true);
    expect([...sources].every((s) => s === "delayed_provider" || s === "database")).toBe(true);
    // One verification (the ISIN search, one chart probe) and one history fetch, for all 50.
    expect(delta(after, before, "search IT0003128367")).toBe(1);
    expect(delta(after, before, "chart ENEL.MI")).toBe(2);
    const stored = await storedBars("ENEL.MI");
    expect(stored.rows).toBe(stored.dates);
    expect(stored.rows).toBeGreaterThan(2480);

    // Afterwards the same request reads the database.
    const again = await call<EodAnswer>("/eod/ENEL.MI?period=1y");
    expect(again.body.data_source).toBe("database");
    expect(again.body.data).toEqual(first?.data);
  });

  it("20 identical POST /historical/ingest at once: one fetch, every answer one that requests in sequence get", async () => {
    const ingest = () =>
      call<IngestAnswer>("/historical/ingest", { method: "POST", body: { tickers: ["ENI.MI"], period: "2y" } });
    const before = await simRequests(yahoo);
    const answers = await Promise.all(Array.from({ length: 20 }, ingest));
    const after = await simRequests(yahoo);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const results = answers.map((a) => a.body.results[0]);
    // Those in flight with the holder share its report, word for word.
    const ingested = results.filter((r) => r?.status === "ingested");
    expect(ingested.length).toBeGreaterThan(0);
    expect(ingested[0]).toMatchObject({ ticker: "ENI.MI", source: "delayed_provider", errors: [] });
    expect(ingested[0]?.rows_written).toBeGreaterThan(490);
    // One that came after the holder had finished (a loaded machine spreads a burst) is a repeat
    // and answers as a repeat does: nothing to do. No other answer is possible.
    const repeat = (await ingest()).body.results[0];
    expect(repeat).toMatchObject({ ticker: "ENI.MI", status: "up_to_date", rows_written: 0 });
    for (const r of results) expect([ingested[0], repeat]).toContainEqual(r);
    expect(delta(after, before, "chart ENI.MI")).toBe(2);
    const stored = await storedBars("ENI.MI");
    expect(stored).toEqual({ rows: ingested[0]?.rows_written, dates: ingested[0]?.rows_written });
  });
});
