import { z } from "@hono/zod-openapi";

const InsiderTransactionSchema = z.object({
  transaction_date: z.string().nullable(),
  filing_date: z.string(),
  owner_name: z.string(),
  owner_cik: z.string().nullable(),
  relationship: z.string().openapi({ example: "Officer (Chief Executive Officer)" }),
  is_director: z.boolean(),
  is_officer: z.boolean(),
  officer_title: z.string().nullable(),
  is_ten_percent_owner: z.boolean(),
  security_title: z.string().nullable(),
  kind: z.enum(["non_derivative", "derivative"]),
  code: z.string().openapi({ example: "S" }),
  code_meaning: z.string().nullable().openapi({ example: "Open market or private sale" }),
  shares: z.number().nullable(),
  price: z.number().nullable().openapi({ description: "Per share; null when the filing leaves it empty (a gift)" }),
  acquired_disposed: z.string().nullable().openapi({ description: "A (acquired) or D (disposed)" }),
  shares_owned_after: z.number().nullable(),
  ownership: z.enum(["direct", "indirect"]).nullable(),
  nature_of_ownership: z.string().nullable(),
  conversion_or_exercise_price: z.number().nullable(),
  exercise_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  underlying_security_title: z.string().nullable(),
  underlying_shares: z.number().nullable(),
  footnotes: z.array(z.object({ id: z.string(), text: z.string().nullable() })),
  form: z.string().openapi({ description: "4, or 4/A for an amendment (which replaces the filing it amends)" }),
  accession: z.string(),
  line: z.number().int(),
  filing_url: z.string(),
});

export const InsiderAnswerSchema = z
  .object({
    ticker: z.string(),
    isin: z.string(),
    cik: z.number().int(),
    count: z.number().int(),
    transactions: z.array(InsiderTransactionSchema),
    meta: z.object({
      source: z
        .enum(["sec_edgar", "database"])
        .openapi({ description: "sec_edgar when this call fetched new filings" }),
      fetched_at: z.string(),
      cache_hit: z.boolean(),
      filings_checked: z.number().int().openapi({ description: "Recent Form 4 filings listed by EDGAR and looked at" }),
      filings_fetched: z
        .number()
        .int()
        .openapi({ description: "Of those, the ones not stored yet, fetched by this call" }),
      note: z.string().optional(),
    }),
  })
  .openapi("InsiderTransactions");
export type InsiderTransactionsAnswer = z.infer<typeof InsiderAnswerSchema>;
