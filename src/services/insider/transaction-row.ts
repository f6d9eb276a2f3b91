import type { StoredInsiderRow } from "../../db/repositories/insider";
import { relationshipOf, TRANSACTION_CODES } from "../../domain/insider/form4";

const n = (v: string | null) => (v === null ? null : Number(v));

/** A stored transaction line as the answer writes it (snake_case, decimals as numbers, the code's meaning). */
export function transactionRow(r: StoredInsiderRow) {
  return {
    transaction_date: r.transactionDate,
    filing_date: r.filingDate,
    owner_name: r.ownerName,
    owner_cik: r.ownerCik,
    relationship: relationshipOf({
      cik: r.ownerCik ?? "",
      name: r.ownerName,
      isDirector: r.isDirector,
      isOfficer: r.isOfficer,
      officerTitle: r.officerTitle,
      isTenPercentOwner: r.isTenPercentOwner,
      isOther: r.isOther,
    }),
    is_director: r.isDirector,
    is_officer: r.isOfficer,
    officer_title: r.officerTitle,
    is_ten_percent_owner: r.isTenPercentOwner,
    security_title: r.securityTitle,
    kind: r.kind,
    code: r.code,
    code_meaning: TRANSACTION_CODES[r.code] ?? null,
    shares: n(r.shares),
    price: n(r.price),
    acquired_disposed: r.acquiredDisposed,
    shares_owned_after: n(r.sharesOwnedAfter),
    ownership: r.ownership === "D" ? ("direct" as const) : r.ownership === "I" ? ("indirect" as const) : null,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: n(r.conversionOrExercisePrice),
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_shares: n(r.underlyingShares),
    footnotes: r.footnoteIds.map((id) => ({ id, text: r.footnotes[id] ?? null })),
    form: r.form,
    accession: r.accession,
    line: r.line,
    filing_url: r.filingUrl,
  };
}
