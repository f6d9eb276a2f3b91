import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseForm4, relationshipOf } from "../../src/domain/insider/form4";

const xml = readFileSync(new URL("../fixtures/edgar/form4-sample.xml", import.meta.url), "utf8");

describe("a Form 4 (ownershipDocument X0508), field by field", () => {
  const doc = parseForm4(xml);

  it("reads the filing, the issuer and the reporting owner's relationship", () => {
    expect(doc.documentType).toBe("4");
    expect(doc.periodOfReport).toBe("2024-10-01");
    expect(doc.issuerCik).toBe("320193");
    expect(doc.issuerSymbol).toBe("AAPL");
    expect(doc.owners).toEqual([
      {
        cik: "1214156",
        name: "Cook Timothy D",
        isDirector: true,
        isOfficer: true,
        officerTitle: "Chief Executive Officer",
        isTenPercentOwner: false,
        isOther: false,
      },
    ]);
    expect(relationshipOf(doc.owners[0] as (typeof doc.owners)[0])).toBe("Director, Officer (Chief Executive Officer)");
  });

  it("reads every transaction, non-derivative lines first, with codes, amounts and footnote references", () => {
    expect(doc.transactions.map((t) => [t.line, t.table, t.code])).toEqual([
      [1, "non_derivative", "M"],
      [2, "non_derivative", "F"],
      [3, "non_derivative", "G"],
      [4, "derivative", "M"],
    ]);
    expect(doc.transactions[0]).toEqual({
      line: 1,
      table: "non_derivative",
      securityTitle: "Common Stock",
      transactionDate: "2024-10-01",
      code: "M",
      codeMeaning: "Exercise or conversion of derivative security exempted under Rule 16b-3",
      shares: 383104,
      price: 0,
      acquiredDisposed: "A",
      sharesOwnedAfter: 3663822,
      ownership: "D",
      natureOfOwnership: null,
      conversionOrExercisePrice: null,
      exerciseDate: null,
      expirationDate: null,
      underlyingSecurityTitle: null,
      underlyingShares: null,
      footnoteIds: ["F1"],
    });
    expect(doc.transactions[1]).toMatchObject({
      code: "F",
      codeMeaning: "Payment of exercise price or tax liability by delivering or withholding securities",
      shares: 193906,
      price: 226.21,
      acquiredDisposed: "D",
      sharesOwnedAfter: 3469916,
      footnoteIds: [],
    });
  });

  it("keeps an empty price empty, and an indirect holding's nature with its footnote", () => {
    expect(doc.transactions[2]).toMatchObject({
      code: "G",
      codeMeaning: "Bona fide gift",
      price: null,
      ownership: "I",
      natureOfOwnership: "By Trust",
      footnoteIds: ["F2"],
    });
  });

  it("reads a derivative transaction's underlying security and its footnoted dates", () => {
    expect(doc.transactions[3]).toMatchObject({
      securityTitle: "Restricted Stock Unit",
      conversionOrExercisePrice: null,
      exerciseDate: null,
      expirationDate: null,
      underlyingSecurityTitle: "Common Stock",
      underlyingShares: 383104,
      sharesOwnedAfter: 0,
      acquiredDisposed: "D",
      footnoteIds: ["F3", "F4"],
    });
  });

  it("keeps the footnotes' texts by id, entities decoded", () => {
    expect(doc.footnotes).toEqual({
      F1: "Shares of common stock acquired on the vesting of restricted stock units.",
      F2: "Shares held by a trust of which the reporting person is a trustee & beneficiary.",
      F3: "Each restricted stock unit represents the right to receive, at settlement, one share of common stock.",
      F4: "This award vested on October 1, 2024.",
    });
  });

  it("refuses a document that is not an ownershipDocument", () => {
    expect(() => parseForm4("<html><body>Not here</body></html>")).toThrow("not an ownershipDocument");
  });
});
