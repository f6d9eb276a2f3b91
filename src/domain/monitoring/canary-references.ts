/**
 * The canary's reference instruments: versioned data, reviewed by hand. Each names the instrument as
 * every fundamentals provider finds it and, per field, the range a correct answer lies in, in the
 * service's units (ratios as fractions, amounts in the listing's currency).
 *
 * The ranges are wide on purpose: they must hold through a year of ordinary market moves, and they
 * include the sandbox's synthetic figures of the same instruments, so a local run passes. What they
 * catch is what breaks when a free provider changes without notice: a yield sent in percent, a P/E in
 * thousands, an amount in millions, a per-share figure in cents, another instrument's page, a field
 * gone. Change a range only with a reason, and bump the version (it is logged with every run).
 */
export const CANARY_REFERENCES_VERSION = "2026-11-26";

/** Inclusive bounds of a correct value. */
export type ExpectedRange = readonly [min: number, max: number];

export interface CanaryInstrument {
  /** The catalogue ticker (what the stored checks and verdicts name). */
  ticker: string;
  /** The delayed provider's symbol. */
  symbol: string;
  isin: string;
  /** The listing's quote currency (a scraped per-share figure in another currency is not this listing's). */
  currency: string;
  expected: Readonly<Record<string, ExpectedRange>>;
}

/** Two US shares (the delayed provider and the US page) and two European ones (the delayed provider and the European page). */
export const CANARY_INSTRUMENTS: readonly CanaryInstrument[] = [
  {
    ticker: "MSFT",
    symbol: "MSFT",
    isin: "US5949181045",
    currency: "USD",
    expected: {
      pe_ratio: [15, 60],
      eps_ttm: [5, 80],
      dividend_yield: [0.003, 0.035],
      market_cap: [2e11, 8e12],
      beta: [0.5, 1.8],
    },
  },
  {
    ticker: "JNJ",
    symbol: "JNJ",
    isin: "US4781601046",
    currency: "USD",
    expected: {
      pe_ratio: [8, 40],
      eps_ttm: [3, 60],
      dividend_yield: [0.012, 0.05],
      market_cap: [1.5e11, 3e12],
      beta: [0.2, 1.5],
    },
  },
  {
    ticker: "OR.PA",
    symbol: "OR.PA",
    isin: "FR0000120321",
    currency: "EUR",
    expected: {
      pe_ratio: [12, 60],
      eps_ttm: [5, 80],
      dividend_yield: [0.008, 0.045],
      market_cap: [8e10, 5e12],
      beta: [0.3, 1.8],
    },
  },
  {
    ticker: "MUV2.DE",
    symbol: "MUV2.DE",
    isin: "DE0008430026",
    currency: "EUR",
    expected: {
      pe_ratio: [7, 35],
      eps_ttm: [15, 80],
      dividend_yield: [0.015, 0.07],
      market_cap: [3e10, 1.5e12],
      beta: [0.4, 2],
    },
  },
];
