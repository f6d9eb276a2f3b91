import Decimal from "decimal.js";
import type { Section, Sources } from "./place";

export interface FundInput {
  isin: string;
  family: string | null;
  domicile: string | null;
  category: string | null;
  /** Ratios. */
  yield: number | null;
  expenseRatio: number | null;
  totalAssets: number | null;
  holdings: { symbol: string; name: string; weight: number | null }[];
  sectors: { name: string; weight: number }[];
  positions: { cash: number | null; stock: number | null; bond: number | null };
}

const pctString = (x: number | null, dp = 2) => (x === null ? null : new Decimal(x).times(100).toFixed(dp));

/** ETF_Data: scalars as strings, Yield and every "_%" in percent, NetExpenseRatio a ratio. */
export function renderEtfData(f: FundInput, labels: Record<string, string>, sources: Sources): Section {
  sources.ETF_Data = labels;
  return {
    ISIN: f.isin,
    Company_Name: f.family,
    Company_URL: null,
    ETF_URL: null,
    Domicile: f.domicile,
    Index_Name: null,
    Category: f.category,
    Yield: f.yield === null ? null : new Decimal(f.yield).times(100).toFixed(6),
    NetExpenseRatio: f.expenseRatio === null ? null : new Decimal(f.expenseRatio).toFixed(5),
    TotalAssets: f.totalAssets === null ? null : new Decimal(f.totalAssets).toFixed(2),
    Holdings_Count: f.holdings.length,
    Top_10_Holdings: Object.fromEntries(
      f.holdings.slice(0, 10).map((h) => [
        h.symbol,
        {
          Code: h.symbol,
          Exchange: null,
          Name: h.name,
          "Assets_%": h.weight === null ? null : new Decimal(h.weight).times(100).toNumber(),
        },
      ]),
    ),
    Sector_Weights: Object.fromEntries(
      f.sectors.map((s) => [s.name, { "Equity_%": pctString(s.weight, 3), Relative_to_Category: null }]),
    ),
    Asset_Allocation: {
      Cash: { "Net_Assets_%": pctString(f.positions.cash) },
      Stock: { "Net_Assets_%": pctString(f.positions.stock) },
      Bond: { "Net_Assets_%": pctString(f.positions.bond) },
    },
  };
}
