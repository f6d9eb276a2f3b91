import { HIGHLIGHT_SOURCES, HIGHLIGHT_TEXT } from "../../data/delayed-highlights";
import type { SchemaDrift } from "../drift";
import { readWire, type WireNode } from "../wire-schema";
import { ASSET_CLASSES, type Summary } from "./delayed-figures";

/**
 * The service's own schema of the quoteSummary fields it reads, and the reading of an answer with
 * it: a field of another shape costs that field, never the module or the answer. The highlight
 * fields come from the mapping in delayed-figures (one place names them); the rest is listed here.
 */

const DOCUMENT = "quoteSummary";

type Fields = Record<string, WireNode>;
const obj = (fields: Fields): WireNode => ({ fields });
const list = (item: WireNode): WireNode => ({ list: item });

/** What names a row of a list: a row without it cannot be placed. */
const KEY = (leaf: "string" | "date"): WireNode => ({ required: leaf });

/** A holder in the ownership modules (institutions, funds). */
const OWNER = obj({
  organization: KEY("string"),
  reportDate: "date",
  pctHeld: "number",
  position: "number",
  pctChange: "number",
});

const EARNINGS_ESTIMATE = obj({ avg: "number", low: "number", high: "number", numberOfAnalysts: "number" });

/** Fields read outside the highlight table, by module. */
const OTHER_FIELDS: Record<string, Fields> = {
  price: {
    currency: "string",
    longName: "string",
    shortName: "string",
    exchangeName: "string",
    exchange: "string",
    quoteType: "string",
  },
  financialData: {
    recommendationMean: "number",
    recommendationKey: "string",
    targetMeanPrice: "number",
    numberOfAnalystOpinions: "number",
    financialCurrency: "string",
  },
  recommendationTrend: {
    trend: list(
      obj({
        period: KEY("string"),
        strongBuy: "number",
        buy: "number",
        hold: "number",
        sell: "number",
        strongSell: "number",
      }),
    ),
  },
  assetProfile: {
    longBusinessSummary: "string",
    address1: "string",
    city: "string",
    zip: "string",
    country: "string",
    phone: "string",
    website: "string",
    sector: "string",
    industry: "string",
    fullTimeEmployees: "number",
  },
  earningsHistory: {
    history: list(
      obj({
        quarter: KEY("date"),
        period: "string",
        epsActual: "number",
        epsEstimate: "number",
        epsDifference: "number",
        surprisePercent: "number",
      }),
    ),
  },
  earningsTrend: {
    trend: list(
      obj({
        period: KEY("string"),
        endDate: "date",
        growth: "number",
        earningsEstimate: EARNINGS_ESTIMATE,
        revenueEstimate: obj({ avg: "number" }),
      }),
    ),
  },
  institutionOwnership: { ownershipList: list(OWNER) },
  fundOwnership: { ownershipList: list(OWNER) },
  fundProfile: {
    family: "string",
    categoryName: "string",
    legalType: "string",
    feesExpensesInvestment: obj({ annualReportExpenseRatio: "number" }),
  },
  topHoldings: {
    holdings: list(obj({ symbol: KEY("string"), holdingName: "string", holdingPercent: "number" })),
    sectorWeightings: list({ weights: true }),
    ...Object.fromEntries(ASSET_CLASSES.map(([, key]) => [key, "number" as const])),
  },
  calendarEvents: {
    dividendDate: "date",
    // The coming report: a day, or the first and last day of the range expected; the last call held.
    earnings: obj({
      earningsDate: { series: "date" },
      earningsCallDate: { series: "date" },
      earningsAverage: "number",
      earningsLow: "number",
      earningsHigh: "number",
      revenueAverage: "number",
      revenueLow: "number",
      revenueHigh: "number",
    }),
  },
};

function buildSchema(): Record<string, Fields> {
  const modules: Record<string, Fields> = {};
  const add = (m: string, key: string, node: WireNode) => {
    modules[m] ??= {};
    (modules[m] as Fields)[key] = node;
  };
  for (const [, sources] of HIGHLIGHT_SOURCES) for (const [m, key] of sources) add(m, key, "number");
  for (const [, m, key, kind] of HIGHLIGHT_TEXT) add(m, key, kind === "date" ? "date" : "string");
  for (const [m, fields] of Object.entries(OTHER_FIELDS))
    for (const [key, node] of Object.entries(fields)) add(m, key, node);
  return modules;
}

/** Every module the service reads, with the fields it reads in each. */
export const SUMMARY_SCHEMA: WireNode = {
  fields: Object.fromEntries(Object.entries(buildSchema()).map(([m, f]) => [m, obj(f)])),
};

/**
 * Reads a quoteSummary result (`quoteSummary.result[0]`) with the service's schema: the well-formed fields, and a drift for each other one.
 */
export function readSummary(provider: string, result: unknown): { summary: Summary; drifts: SchemaDrift[] } {
  const drifts: SchemaDrift[] = [];
  const summary = readWire(result, SUMMARY_SCHEMA, { provider, document: DOCUMENT, path: "" }, drifts);
  return { summary: (summary ?? {}) as Summary, drifts };
}
