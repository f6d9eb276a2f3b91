import { describe, expect, it } from "vitest";
import { hasValidCheckDigit } from "../../src/domain/isin";
import type { IndexConstituentsAnswer } from "../../src/routes/indices/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { call } from "../helpers/worker-http";

describe("GET /index/{index_name}/constituents", () => {
  it("lists the CAC 40's forty members, each with a valid ISIN and its Paris listing", async () => {
    const res = await call<IndexConstituentsAnswer>("/index/cac40/constituents");
    expect(res.status).toBe(200);
    expect(res.body.index).toMatchObject({ code: "cac40", name: "CAC 40", symbol: "^FCHI", member_count: 40 });
    expect(res.body.index.as_of).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(res.body.members).toHaveLength(40);
    for (const m of res.body.members) {
      expect(hasValidCheckDigit(m.isin), m.isin).toBe(true);
      expect(m).toMatchObject({ exchange: "PAR", currency: "EUR", ticker: expect.stringMatching(/\.PA$/) });
      expect(m.sector).toEqual(expect.any(String));
    }
    expect(res.body.members.map((m) => m.isin)).toContain("FR0000121014");
  });

  it("finds an index under its aliases, case and spaces ignored", async () => {
    for (const name of ["CAC%2040", "%5EFCHI", "Cac40"]) {
      const res = await call<IndexConstituentsAnswer>(`/index/${name}/constituents`);
      expect(res.body.index.code, name).toBe("cac40");
    }
    expect((await call<IndexConstituentsAnswer>("/index/sx5e/constituents")).body.index.member_count).toBe(50);
    expect((await call<IndexConstituentsAnswer>("/index/%5ENDX/constituents")).body.index.name).toBe("Nasdaq-100");
  });

  it("orders a composition with weights heaviest first, weights as ratios", async () => {
    const res = await call<IndexConstituentsAnswer>("/index/aex/constituents");
    const weights = res.body.members.map((m) => m.weight ?? 0);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(res.body.members[0]).toMatchObject({ isin: "NL0010273215", ticker: "ASML.AS" });
    expect(weights.reduce((s, w) => s + w, 0)).toBeLessThanOrEqual(1.0001);
  });

  it("answers 404 for an unknown index, listing the known ones", async () => {
    const res = await call<ErrorBody>("/index/ibex35/constituents");
    expect(res.status).toBe(404);
    expect(res.body.reason).toBe(
      "known indices: AEX (aex), CAC 40 (cac40), DAX (dax), Euro Stoxx 50 (eurostoxx50), FTSE MIB (ftsemib), Nasdaq-100 (nasdaq100)",
    );
  });

  it("has put the members the catalogue lacked into it: their listings resolve", async () => {
    const dax = await call<IndexConstituentsAnswer>("/index/dax/constituents");
    expect(dax.body.members.every((m) => m.ticker !== null)).toBe(true);
    const listing = await call<{ listings: { ticker: string }[] }>("/listings?ticker=RHM.DE");
    expect(listing.status).toBe(200);
  });
});
