import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

const amount = (name: string) => numeric(name, { precision: 30, scale: 8 });

/**
 * The Form 4 filings read for an issuer (by its SEC CIK: share classes such as GOOG and GOOGL have
 * one issuer), so a later call fetches only newer ones. A 4/A supersedes the earlier filings of the
 * same reporting owner and period (`superseded_by`).
 */
export const insiderFilings = pgTable(
  "insider_filings",
  {
    accession: text("accession").primaryKey(),
    issuerCik: integer("issuer_cik").notNull(),
    form: text("form").notNull(),
    filingDate: date("filing_date").notNull(),
    periodOfReport: date("period_of_report"),
    ownerCik: text("owner_cik"),
    filingUrl: text("filing_url").notNull(),
    footnotes: jsonb("footnotes").$type<Record<string, string>>().notNull(),
    supersededBy: text("superseded_by"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("insider_filings_issuer_idx").on(t.issuerCik, t.filingDate)],
);

/** One row per transaction line of a filing (non-derivative lines first, then derivative ones). */
export const insiderTransactions = pgTable(
  "insider_transactions",
  {
    accession: text("accession")
      .notNull()
      .references(() => insiderFilings.accession, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    issuerCik: integer("issuer_cik").notNull(),
    ownerCik: text("owner_cik"),
    ownerName: text("owner_name").notNull(),
    isDirector: boolean("is_director").notNull(),
    isOfficer: boolean("is_officer").notNull(),
    officerTitle: text("officer_title"),
    isTenPercentOwner: boolean("is_ten_percent_owner").notNull(),
    isOther: boolean("is_other").notNull(),
    kind: text("kind", { enum: ["non_derivative", "derivative"] }).notNull(),
    securityTitle: text("security_title"),
    transactionDate: date("transaction_date"),
    code: text("code").notNull(),
    shares: amount("shares"),
    price: amount("price"),
    acquiredDisposed: text("acquired_disposed"),
    sharesOwnedAfter: amount("shares_owned_after"),
    ownership: text("ownership"),
    natureOfOwnership: text("nature_of_ownership"),
    conversionOrExercisePrice: amount("conversion_or_exercise_price"),
    exerciseDate: date("exercise_date"),
    expirationDate: date("expiration_date"),
    underlyingSecurityTitle: text("underlying_security_title"),
    underlyingShares: amount("underlying_shares"),
    footnoteIds: jsonb("footnote_ids").$type<string[]>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accession, t.line] }),
    index("insider_transactions_issuer_date_idx").on(t.issuerCik, t.transactionDate),
  ],
);
