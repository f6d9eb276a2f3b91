import { env } from "cloudflare:workers";
import { sql, TransactionRollbackError } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { searchCandidatesSql } from "../../src/db/repositories/search";
import { buildDeps } from "../../src/deps";
import { searchTerms } from "../../src/domain/search";
import type { ErrorBody } from "../../src/routes/openapi";
import type { SearchBody } from "../../src/routes/search/schema";
import { withDb } from "../helpers/db";
import { fault, forgetCached, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
const flatten = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(flatten)];

const catalogued = (body: SearchBody) => body.results.filter((r) => r.in_catalogue);
const fromProvider = (body: SearchBody) => body.results.filter((r) => !r.in_catalogue);

describe("GET /search", () => {
  it("finds Apple by a misspelt name, then what the provider knows that the catalogue lacks", async () => {
    await forgetCached("search:*");
    const res = await call<SearchBody>("/search?q=aple");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    const [first] = res.body.results;
    expect(first).toMatchObject({
      in_catalogue: true,
      match: "fuzzy",
      score: 0.57,
      isin: "US0378331005",
      name: "Apple Inc.",
      ticker: "AAPL",
      exchange: "NASDAQ",
      currency: "USD",
      quote_type: "EQUITY",
    });
    expect(first?.in_catalogue && first.listings.map((l) => [l.ticker, l.exchange, l.currency])).toEqual([
      ["AAPL", "NASDAQ", "USD"],
    ]);
    // The provider's APLE (a REIT) is not in the catalogue; it comes after every catalogue match.
    expect(fromProvider(res.body)).toEqual([
      {
        in_catalogue: false,
        match: "provider",
        symbol: "APLE",
        name: "Apple Hospitality REIT, Inc.",
        exchange: "NYQ",
        quote_type: "EQUITY",
      },
    ]);
    expect(res.body.results.at(-1)).toMatchObject({ symbol: "APLE" });
    expect(res.body.provider).toEqual({ name: "delayed_provider", status: "ok", cache_hit: false });
    expect(res.body.count).toBe(res.body.results.length);

    // The provider's part is kept a day: asked again, the provider is not.
    const before = (await simRequests(yahoo))["search aple"] ?? 0;
    const again = await call<SearchBody>("/search?q=APLE");
    expect(again.body.provider).toEqual({ name: "delayed_provider", status: "ok", cache_hit: true });
    expect((await simRequests(yahoo))["search aple"] ?? 0).toBe(before);
    // The cached hits are told from the catalogue's in the search's own round trip: the same answer.
    expect(again.body.results).toEqual(res.body.results);
  });

  it("finds an instrument's listings by its ISIN, and leaves out the provider's lines the catalogue has", async () => {
    await forgetCached("search:*");
    const res = await call<SearchBody>("/search?q=us0378331005");
    expect(res.status).toBe(200);
    expect(catalogued(res.body)).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ match: "isin", isin: "US0378331005", ticker: "AAPL" });
    // The provider's identifier search gives AAPL (catalogued, left out) and Apple's Xetra line.
    expect(fromProvider(res.body).map((r) => !r.in_catalogue && [r.symbol, r.exchange])).toEqual([["APC.DE", "GER"]]);
    // From the cached hits, AAPL is still told apart as the catalogue's.
    const again = await call<SearchBody>("/search?q=us0378331005");
    expect(again.body.provider.cache_hit).toBe(true);
    expect(fromProvider(again.body).map((r) => !r.in_catalogue && [r.symbol, r.exchange])).toEqual([["APC.DE", "GER"]]);
  });

  it("ranks a ticker before names that start with the query, before near misses", async () => {
    const res = await call<SearchBody>("/search?q=sap&limit=50");
    const found = catalogued(res.body).flatMap((r) => (r.in_catalogue ? [r] : []));
    // SAP is the ticker of the ADR; SAP SE's own line (SAP.DE) matches by its name.
    expect(found.slice(0, 2).map((r) => [r.match, r.name, r.ticker])).toEqual([
      ["ticker", "SAP SE (American Depositary Shares)", "SAP"],
      ["name_prefix", "SAP SE", "SAP.DE"],
    ]);
    const near = found.slice(2);
    expect(near.length).toBeGreaterThan(0);
    for (const r of near) {
      expect(r.match).toBe("fuzzy");
      expect(r.score).toBeGreaterThanOrEqual(0.4);
    }
    // Near misses best first.
    const scores = near.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // Equally good matches in byte order of their names.
    const named = await call<SearchBody>("/search?q=Deutsche&limit=3");
    expect(named.body.results.map((r) => r.in_catalogue && [r.match, r.name, r.score])).toEqual([
      ["name_prefix", "Deutsche Bank Aktiengesellschaft", 1],
      ["name_prefix", "Deutsche Börse AG", 1],
      ["name_prefix", "Deutsche Telekom AG", 1],
    ]);
  });

  it("does not ask the provider when the catalogue fills the answer", async () => {
    await forgetCached("search:*");
    const before = (await simRequests(yahoo))["search Deutsche"] ?? 0;
    const res = await call<SearchBody>("/search?q=Deutsche&limit=2");
    expect(res.body.count).toBe(2);
    expect(res.body.provider).toEqual({ name: "delayed_provider", status: "not_asked", cache_hit: false });
    expect((await simRequests(yahoo))["search Deutsche"] ?? 0).toBe(before);
  });

  it("answers the catalogue's part when the provider fails, and says so", async () => {
    await forgetCached("search:*");
    await fault(yahoo, "siemns", "500", 1);
    const res = await call<SearchBody>("/search?q=siemns");
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({
      in_catalogue: true,
      match: "fuzzy",
      name: "Siemens Aktiengesellschaft",
    });
    expect(res.body.provider).toMatchObject({ status: "unavailable", cache_hit: false });
    expect(res.body.provider.message).toContain("HTTP 500");
    // A failure is not kept: the next search asks again.
    const next = await call<SearchBody>("/search?q=siemns");
    expect(next.body.provider).toEqual({ name: "delayed_provider", status: "ok", cache_hit: false });
  });

  it("reads LIKE's wildcards as themselves", async () => {
    const res = await call<SearchBody>("/search?q=%25%25%25");
    expect(res.status).toBe(200);
    expect(catalogued(res.body)).toEqual([]);
  });

  it.each([
    ["/search", "q"],
    ["/search?q=%20%20", "q"],
    ["/search?q=apple&limit=0", "limit"],
    ["/search?q=apple&limit=51", "limit"],
    [`/search?q=${"a".repeat(101)}`, "q"],
  ])("refuses %s with a 400 naming %s", async (path, field) => {
    const res = await call<ErrorBody>(path);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it("ranks the nearest names when a word is near more names than it ranks: the GiST index orders them", async () => {
    // 70 names share a word nobody else has: more than the 60 near misses a search of 10 ranks.
    const isins = Array.from({ length: 70 }, (_, i) => `XZBROADWD${String(i).padStart(3, "0")}`);
    await withDb((db) =>
      db.execute(sql`
        WITH a AS (
          INSERT INTO assets (isin, name, quote_type)
          SELECT isin, 'Qvx Broadwordz ' || ord, 'EQUITY' FROM unnest(${`{${isins.join(",")}}`}::text[]) WITH ORDINALITY AS x(isin, ord)
          RETURNING id, name
        )
        INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary)
        SELECT id, 'QBW' || id, 'XETRA', 'EUR', name, 'test', true FROM a`),
    );
    try {
      const res = await call<SearchBody>("/search?q=broadwordz%2042&limit=10");
      expect(res.status).toBe(200);
      const found = catalogued(res.body);
      expect(found).toHaveLength(10);
      expect(new Set(found.map((r) => r.match))).toEqual(new Set(["fuzzy"]));
      // The nearest first: only "Qvx Broadwordz 42" has both words.
      expect(found[0]).toMatchObject({ name: "Qvx Broadwordz 42", score: 1 });
      const scores = found.map((r) => (r as { score: number }).score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    } finally {
      await withDb((db) => db.execute(sql`DELETE FROM assets WHERE isin LIKE 'XZBROADWD%'`));
    }
  });

  it("serves a name's prefix from the pattern index over lower(name)", async () => {
    // The GiST index serves LIKE too, and the planner prefers it on a table this small: planned
    // without it (dropped in a transaction rolled back) and without sequential scans.
    const deps = buildDeps(env);
    let indexes: string[] = [];
    try {
      await deps
        .transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL enable_seqscan = off`);
          await tx.execute(sql`DROP INDEX assets_name_lower_trgm_gist_idx`);
          const explained = await tx.execute(
            sql`EXPLAIN (FORMAT JSON) ${searchCandidatesSql(searchTerms("Deutsche", 10))}`,
          );
          const cell = Object.values(explained.rows[0] ?? {})[0];
          const [root] = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
          indexes = root ? flatten(root.Plan).flatMap((n) => n["Index Name"] ?? []) : [];
          tx.rollback();
        })
        .catch((err: unknown) => {
          if (!(err instanceof TransactionRollbackError)) throw err;
        });
    } finally {
      await deps.close();
    }
    expect(indexes).toContain("assets_name_prefix_idx");
  });

  it("finds its candidates through indexes alone, whichever way the query matches", async () => {
    // Whether every condition has an index, whatever the planner prefers for a table this small: with
    // sequential scans ruled out, a condition without an index of its own leaves no plan but a walk
    // of a whole index.
    const nodes = await withDb(async (db) => {
      const [, , explained] = await db.batch([
        db.execute(sql`SELECT set_config('enable_seqscan', 'off', true)`),
        db.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', '0.4', true)`),
        db.execute(sql`EXPLAIN (FORMAT JSON) ${searchCandidatesSql(searchTerms("aple", 10))}`),
      ]);
      const cell = Object.values(explained.rows[0] ?? {})[0];
      const [root] = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
      return root ? flatten(root.Plan) : [];
    });
    const scans = nodes.filter((n) => n["Node Type"].endsWith("Scan"));
    expect(scans.filter((n) => n["Relation Name"]).map((n) => [n["Node Type"], n["Relation Name"]])).toEqual(
      expect.arrayContaining([
        ["Bitmap Heap Scan", "listings"],
        ["Bitmap Heap Scan", "assets"],
      ]),
    );
    expect(scans.map((n) => n["Node Type"])).not.toContain("Seq Scan");
    const names = scans.flatMap((n) => n["Index Name"] ?? []);
    expect(names.filter((n) => !n.startsWith("assets_name")).sort()).toEqual([
      "assets_isin_unique",
      "listings_delayed_symbol_idx",
      "listings_ticker_idx",
    ]);
    // The near misses by the GIN index; the GiST one orders them only when they are too many to
    // rank (never executed here, but planned). The prefix by an index over lower(name): the pattern
    // index (what 100,000 names get, tools/bench/catalogue.ts), or on a table this small the GiST
    // one, which serves LIKE too.
    const byName = names.filter((n) => n.startsWith("assets_name")).sort();
    expect(byName).toHaveLength(3);
    expect(byName.filter((n) => n === "assets_name_trgm_idx")).toHaveLength(1);
    expect(byName).toContain("assets_name_lower_trgm_gist_idx");
    const overLowerName = new Set(["assets_name_prefix_idx", "assets_name_lower_trgm_gist_idx"]);
    expect(byName.filter((n) => n !== "assets_name_trgm_idx").every((n) => overLowerName.has(n))).toBe(true);
  });
});
