import { z } from "@hono/zod-openapi";

/** One session where a listing's adjusted closes disagree with its stored events. */
export const AdjustmentMismatchSchema = z
  .object({
    date: z.string(),
    kind: z.enum(["dividend", "split", "unexplained"]).openapi({
      description:
        "dividend: a step across an ex-date other than its dividend implies; unexplained: a step where no event is stored; split: closes that jump by a stored split's ratio",
    }),
    expected: z.number(),
    observed: z.number(),
    tolerance: z.number().optional().openapi({ description: "The relative tolerance this step was held to" }),
  })
  .openapi("AdjustmentMismatch");

import { splitRatio } from "../../domain/corporate-actions";
import type { CorporateActions } from "../../services/corporate-actions/get-corporate-actions";

const ListingOfSchema = z
  .object({
    ticker: z.string().openapi({ example: "AAPL" }),
    exchange: z.string().nullable().openapi({ example: "NASDAQ" }),
    currency: z.string().openapi({ example: "USD", description: "Dividends are in this currency" }),
    isin: z.string().openapi({ example: "US0378331005" }),
  })
  .openapi("CorporateActionsListing");

const CheckSchema = z
  .object({
    checked_at: z.string().openapi({ example: "2026-11-27T10:00:00.000Z" }),
    consistent: z.boolean().openapi({
      description: "The stored adjusted closes agree with the stored dividends and splits at every session",
    }),
    tolerance: z.number().openapi({
      example: 9.5e-7,
      description:
        "Relative tolerance of a session's step at full precision (prices near 100); each step is held to the tolerance its own prices' precision gives",
    }),
    precision: z.enum(["full", "price_hint"]).openapi({
      description:
        "full: the bars are stored at the provider's precision; price_hint: stored rounded (before the service kept every decimal), asked again whole by the next ingestion",
    }),
    bars: z.number().int(),
    dividends: z.number().int(),
    splits: z.number().int(),
    mismatches: z.number().int(),
    first_mismatches: z
      .array(AdjustmentMismatchSchema)
      .openapi({ description: "The first sessions where they disagree (five at most), oldest first" }),
  })
  .nullable()
  .openapi("AdjustmentCheck", {
    description: "The listing's latest check of its adjusted closes against its events; null before the first",
  });

const common = {
  listing: ListingOfSchema,
  from: z.string().nullable(),
  to: z.string().nullable(),
  count: z.number().int(),
  adjustment_check: CheckSchema,
  warning: z
    .string()
    .optional()
    .openapi({ description: "Present when the provider failed while the events were topped up" }),
};

export const DividendsAnswerSchema = z
  .object({
    ...common,
    dividends: z.array(
      z.object({
        ex_date: z.string().openapi({ example: "2026-11-16" }),
        amount: z.number().openapi({ example: 0.26, description: "Per share, in the listing's currency" }),
        source: z.string().openapi({ example: "delayed_provider" }),
      }),
    ),
  })
  .openapi("DividendsAnswer");

export const SplitsAnswerSchema = z
  .object({
    ...common,
    splits: z.array(
      z.object({
        date: z.string().openapi({ example: "2020-08-31" }),
        numerator: z.number().openapi({ example: 4 }),
        denominator: z.number().openapi({ example: 1 }),
        ratio: z.string().openapi({ example: "4:1", description: "New shares for old" }),
        source: z.string(),
      }),
    ),
  })
  .openapi("SplitsAnswer");

export type DividendsBody = z.infer<typeof DividendsAnswerSchema>;
export type SplitsBody = z.infer<typeof SplitsAnswerSchema>;

function commonOf(a: CorporateActions, count: number) {
  const c = a.check;
  return {
    listing: {
      ticker: a.listing.ticker,
      exchange: a.listing.exchange,
      currency: a.listing.currency,
      isin: a.listing.isin,
    },
    from: a.window.from,
    to: a.window.to,
    count,
    adjustment_check: c
      ? {
          checked_at: c.checkedAt.toISOString(),
          consistent: c.mismatches === 0,
          tolerance: a.tolerance,
          precision: c.precision,
          bars: c.bars,
          dividends: c.dividends,
          splits: c.splits,
          mismatches: c.mismatches,
          first_mismatches: c.detail,
        }
      : null,
    ...(a.warning ? { warning: a.warning } : {}),
  };
}

export const toDividendsBody = (a: CorporateActions): DividendsBody => ({
  ...commonOf(a, a.dividends.length),
  dividends: a.dividends.map((d) => ({ ex_date: d.date, amount: d.amount, source: d.source })),
});

export const toSplitsBody = (a: CorporateActions): SplitsBody => ({
  ...commonOf(a, a.splits.length),
  splits: a.splits.map((s) => ({
    date: s.date,
    numerator: s.numerator,
    denominator: s.denominator,
    ratio: splitRatio(s),
    source: s.source,
  })),
});

/** The CSV forms, with the delayed provider's own headers for its event downloads. */
export const dividendsCsv = (a: CorporateActions) =>
  `Date,Dividends\n${a.dividends.map((d) => `${d.date},${d.amount}\n`).join("")}`;
export const splitsCsv = (a: CorporateActions) =>
  `Date,Stock Splits\n${a.splits.map((s) => `${s.date},${splitRatio(s)}\n`).join("")}`;
