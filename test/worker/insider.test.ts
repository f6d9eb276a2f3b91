import { beforeAll, describe, expect, inject, it } from "vitest";
import { cacheKeys } from "../../src/platform/cache";
import type { InsiderTransactionsAnswer } from "../../src/routes/insider/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { forgetCached, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const edgar = inject("edgarSimUrl");

describe("GET /insider-transactions/{ticker}", () => {
  beforeAll(() => resetTickers("V", "BRK-B"));

  it("reads every recent Form 4 of the registrant once, paced under EDGAR's limit, and answers newest first", async () => {
    const res = await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=10");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticker: "V", isin: "US92826C8394", cik: 1403161, count: 10 });
    // 30 filings and an amendment, all fetched: the simulator refuses more than ten requests a second.
    expect(res.body.meta).toMatchObject({
      source: "sec_edgar",
      cache_hit: false,
      filings_checked: 31,
      filings_fetched: 31,
    });
    const dates = res.body.transactions.map((t) => t.transaction_date ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    for (const t of res.body.transactions) {
      expect(t.owner_name.length).toBeGreaterThan(3);
      expect(t.relationship).toMatch(/Director|Officer|10% owner/);
      expect(t.code_meaning).toEqual(expect.any(String));
      expect(t.shares).toBeGreaterThan(0);
      expect(t.filing_url).toMatch(
        new RegExp(`^${edgar}/Archives/edgar/data/1403161/\\d{18}/\\d{10}-\\d{2}-\\d{6}-index\\.htm$`),
      );
    }
  });

  it("answers a repeat from the cache, and after it expires reads the database, fetching only newer filings", async () => {
    const cached = await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=10");
    expect(cached.body.meta).toMatchObject({ cache_hit: true, filings_fetched: 0 });
    await forgetCached(cacheKeys.insiderOfTicker("V"));
    const before = await simRequests(edgar);
    const again = await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=10");
    expect(again.body.meta).toMatchObject({
      source: "database",
      cache_hit: false,
      filings_checked: 31,
      filings_fetched: 0,
    });
    expect(again.body.transactions).toEqual(
      (await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=10")).body.transactions,
    );
    const after = await simRequests(edgar);
    expect((after["submissions 1403161"] ?? 0) - (before["submissions 1403161"] ?? 0)).toBe(1);
    expect((after["form4 1403161"] ?? 0) - (before["form4 1403161"] ?? 0)).toBe(0);
  });

  it("lets an amendment (4/A) replace the filing it amends", async () => {
    const all = await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=1000");
    const amendments = all.body.transactions.filter((t) => t.form === "4/A");
    expect(amendments.length).toBeGreaterThan(0);
    const amended = amendments[0];
    if (!amended) throw new Error("no amendment");
    // The original filing of the same owner and day is gone; the amendment's corrected count is there.
    const sameDay = all.body.transactions.filter(
      (t) => t.owner_name === amended.owner_name && t.transaction_date === amended.transaction_date,
    );
    expect(sameDay.every((t) => t.form === "4/A")).toBe(true);
    // The simulator's amendment corrects the first line's count by 100 shares: the original is gone.
    const originals = await fetch(`${edgar}/submissions/CIK0001403161.json`, {
      headers: { "user-agent": "market-data-service tests@example.com" },
    });
    const recent = (
      (await originals.json()) as {
        filings: { recent: { accessionNumber: string[]; form: string[]; reportDate: string[] } };
      }
    ).filings.recent;
    const period = amended.transaction_date;
    const amendedAccessions = recent.accessionNumber.filter(
      (_, i) => recent.form[i] === "4" && recent.reportDate[i] === period,
    );
    for (const accession of amendedAccessions)
      expect(all.body.transactions.some((t) => t.accession === accession && t.owner_name === amended.owner_name)).toBe(
        false,
      );
  });

  it("keeps derivative lines, footnotes with their text, and an empty price empty", async () => {
    const all = (await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=1000")).body.transactions;
    const derivative = all.find((t) => t.kind === "derivative");
    expect(derivative).toMatchObject({
      security_title: "Employee Stock Option (right to buy)",
      code: "M",
      underlying_security_title: "Common Stock",
      conversion_or_exercise_price: expect.any(Number),
      expiration_date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    });
    const sale = all.find((t) => t.code === "S");
    expect(sale?.footnotes.map((f) => f.id)).toEqual(["F1", "F2"]);
    expect(sale?.footnotes[0]?.text).toContain("Rule 10b5-1 trading plan");
    const gift = all.find((t) => t.code === "G");
    expect(gift).toMatchObject({ price: null, code_meaning: "Bona fide gift" });
    expect(all.some((t) => t.ownership === "indirect" && t.nature_of_ownership === "By Trust")).toBe(true);
  });

  it("filters by code and by date", async () => {
    const sales = await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=1000&code=p,S");
    expect(sales.body.count).toBeGreaterThan(0);
    expect(new Set(sales.body.transactions.map((t) => t.code))).toEqual(new Set(["P", "S"]));
    const window = await call<InsiderTransactionsAnswer>(
      "/insider-transactions/V?limit=1000&from=2026-01-01&to=2026-03-31",
    );
    expect(window.body.count).toBeGreaterThan(0);
    for (const t of window.body.transactions) {
      expect(t.transaction_date ?? "").toMatch(/^2026-0[1-3]-/);
    }
    const bad = await call<ErrorBody>("/insider-transactions/V?code=SALE");
    expect(bad.status).toBe(400);
  });

  it("answers 404 for a share EDGAR does not cover, and an empty list for a registrant that files no Form 4", async () => {
    const paris = await call<ErrorBody>("/insider-transactions/MC.PA");
    expect(paris.status).toBe(404);
    expect(paris.body.reason).toBe("SEC EDGAR covers US registrants only; MC.PA is FR0000121014 on PAR");
    const sap = await call<InsiderTransactionsAnswer>("/insider-transactions/SAP");
    expect(sap.status).toBe(200);
    expect(sap.body).toMatchObject({ cik: 1000184, count: 0, transactions: [] });
  });

  it("does not ask EDGAR without a declared User-Agent, and says why", async () => {
    // The registrant is known (EDGAR's ticker list is kept a day): nothing stored yet, and a note.
    const res = await call<InsiderTransactionsAnswer>("/insider-transactions/BRK-B", { env: { SEC_USER_AGENT: "" } });
    expect(res.status).toBe(200);
    expect(res.body.transactions).toEqual([]);
    expect(res.body.meta.note).toBe(
      "nothing fetched: sec_edgar: not asked: SEC_USER_AGENT is not set (EDGAR refuses undeclared agents); the stored transactions are shown",
    );
    const refused = await fetch(`${edgar}/files/company_tickers.json`, { headers: { "user-agent": "node" } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Undeclared Automated Tool");
  });
});

describe("the rendered document's InsiderTransactions", () => {
  it("shows the stored Form 4 lines of a US share, newest first, each with its source", async () => {
    await call<InsiderTransactionsAnswer>("/insider-transactions/V?limit=5");
    const doc = await call<{
      InsiderTransactions: Record<string, Record<string, unknown>>;
      Sources: Record<string, Record<string, string>>;
    }>("/fundamental?ticker=V&provider=delayed_provider&nocache=true");
    const lines = Object.values(doc.body.InsiderTransactions);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatchObject({
      ownerName: expect.any(String),
      transactionCode: expect.stringMatching(/^[A-Z]$/),
      secLink: expect.stringContaining("/Archives/edgar/data/1403161/"),
    });
    const dates = lines.map((l) => String(l.transactionDate));
    expect(dates).toEqual([...dates].sort().reverse());
    expect(Object.keys(doc.body.Sources.InsiderTransactions ?? {})).toHaveLength(20);
    expect(doc.body.Sources.InsiderTransactions?.["0"]).toMatch(/^database \(\d{4}-\d\d-\d\d\)$/);
  });
});
