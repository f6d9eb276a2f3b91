import type { WireNode } from "../../domain/wire-schema";

/**
 * What the client reads of a chart answer, field by field (domain/wire-schema): a field gone or of
 * another type costs that field (a bar's missing volume, the name), reported as schema_drift; the
 * answer fails only when nothing of it can be read (no result, no bars).
 */
const SERIES = { series: "number" } as const;
export const CHART: WireNode = {
  fields: {
    chart: {
      fields: {
        result: {
          list: {
            fields: {
              meta: {
                fields: {
                  currency: { always: "string" },
                  symbol: { always: "string" },
                  exchangeName: { always: "string" },
                  instrumentType: "string",
                  regularMarketPrice: { always: "number" },
                  chartPreviousClose: "number",
                  regularMarketTime: "number",
                  regularMarketDayHigh: "number",
                  regularMarketDayLow: "number",
                  regularMarketVolume: "number",
                  priceHint: { always: "number" },
                  gmtoffset: "number",
                  longName: "string",
                  shortName: "string",
                },
              },
              timestamp: SERIES,
              // Present only when asked for and non-empty; an event without its date or amount cannot be placed.
              events: {
                fields: {
                  dividends: { entries: { fields: { amount: { required: "number" }, date: { required: "number" } } } },
                  // Funds' capital gains distributions, sent apart when asked (events=capitalGains).
                  capitalGains: {
                    entries: { fields: { amount: { required: "number" }, date: { required: "number" } } },
                  },
                  splits: {
                    entries: {
                      fields: {
                        date: { required: "number" },
                        numerator: { required: "number" },
                        denominator: { required: "number" },
                      },
                    },
                  },
                },
              },
              indicators: {
                fields: {
                  quote: {
                    list: { fields: { open: SERIES, high: SERIES, low: SERIES, close: SERIES, volume: SERIES } },
                  },
                  adjclose: { list: { fields: { adjclose: SERIES } } },
                },
              },
            },
          },
        },
        error: { fields: { code: "string", description: "string" } },
      },
    },
  },
};

export type Series = (number | null)[];
/** A chart result as read: every field optional (a drifted one is absent). */
export interface ChartResult {
  meta: {
    currency?: string;
    symbol?: string;
    exchangeName?: string;
    regularMarketPrice?: number;
    regularMarketTime?: number;
    regularMarketDayHigh?: number;
    regularMarketDayLow?: number;
    regularMarketVolume?: number;
    priceHint?: number;
    /** The venue's offset from UTC in seconds (its current one): a session's local day from its stamp. */
    gmtoffset?: number;
    longName?: string;
    shortName?: string;
  };
  timestamp?: Series;
  events?: {
    dividends?: Record<string, { amount: number; date: number }>;
    capitalGains?: Record<string, { amount: number; date: number }>;
    splits?: Record<string, { date: number; numerator: number; denominator: number }>;
  };
  indicators?: {
    quote?: { open?: Series; high?: Series; low?: Series; close?: Series; volume?: Series }[];
    adjclose?: { adjclose?: Series }[];
  };
}
export interface ChartAnswer {
  chart?: { result?: ChartResult[]; error?: { code?: string; description?: string } };
}
