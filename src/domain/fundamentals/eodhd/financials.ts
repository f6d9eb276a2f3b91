import Decimal from "decimal.js";
import type { Section, Sources } from "./place";

/** Service statement items (snake_case, the provider's signs) -> EODHD line items. */
const INCOME_ITEMS: Record<string, string> = {
  total_revenue: "totalRevenue",
  cost_of_revenue: "costOfRevenue",
  gross_profit: "grossProfit",
  research_and_development: "researchDevelopment",
  selling_general_and_administration: "sellingGeneralAdministrative",
  operating_expense: "totalOperatingExpenses",
  operating_income: "operatingIncome",
  ebit: "ebit",
  ebitda: "ebitda",
  reconciled_depreciation: "reconciledDepreciation",
  interest_expense: "interestExpense",
  pretax_income: "incomeBeforeTax",
  tax_provision: "incomeTaxExpense",
  net_income: "netIncome",
  net_income_common_stockholders: "netIncomeApplicableToCommonShares",
};
const BALANCE_ITEMS: Record<string, string> = {
  total_assets: "totalAssets",
  total_liabilities_net_minority_interest: "totalLiab",
  stockholders_equity: "totalStockholderEquity",
  cash_and_cash_equivalents: "cashAndEquivalents",
  total_debt: "shortLongTermDebtTotal",
  net_debt: "netDebt",
  ordinary_shares_number: "commonStockSharesOutstanding",
  current_assets: "totalCurrentAssets",
  current_liabilities: "totalCurrentLiabilities",
  long_term_debt: "longTermDebt",
  current_debt: "shortTermDebt",
  retained_earnings: "retainedEarnings",
  inventory: "inventory",
  accounts_payable: "accountsPayable",
  accounts_receivable: "netReceivables",
  goodwill: "goodWill",
  net_ppe: "propertyPlantAndEquipmentNet",
};
const CASHFLOW_ITEMS: Record<string, string> = {
  operating_cash_flow: "totalCashFromOperatingActivities",
  capital_expenditure: "capitalExpenditures",
  free_cash_flow: "freeCashFlow",
  cash_dividends_paid: "dividendsPaid",
  depreciation_and_amortization: "depreciation",
  repurchase_of_capital_stock: "salePurchaseOfStock",
  net_income_from_continuing_operations: "netIncome",
};

/** EODHD writes capital expenditure as a positive magnitude (free cash flow = operations - capex). */
const MAGNITUDES = new Set(["capitalExpenditures"]);

const twoDecimals = (x: number) => new Decimal(x).toFixed(2);

export interface StatementInput {
  statement: "income" | "balance" | "cashflow";
  periodType: "annual" | "quarterly";
  periodEnd: string;
  currency: string | null;
  items: Record<string, number | null>;
}

const STATEMENT_LAYOUT = [
  ["Balance_Sheet", "balance", BALANCE_ITEMS],
  ["Cash_Flow", "cashflow", CASHFLOW_ITEMS],
  ["Income_Statement", "income", INCOME_ITEMS],
] as const;

/** Financials: each statement's rows keyed by period end, yearly and quarterly, items as two-decimal strings. */
export function renderFinancials(
  rows: readonly StatementInput[],
  currency: string | null,
  label: string | null,
  sources: Sources,
) {
  const out: Section = {};
  const labels: Record<string, string> = {};
  for (const [name, kind, items] of STATEMENT_LAYOUT) {
    const of = (period: "annual" | "quarterly") =>
      Object.fromEntries(
        rows
          .filter((r) => r.statement === kind && r.periodType === period)
          .sort((a, b) => (a.periodEnd < b.periodEnd ? 1 : -1))
          .map((r) => {
            const row: Record<string, string | null> = {
              date: r.periodEnd,
              filing_date: null,
              currency_symbol: r.currency ?? currency,
            };
            for (const [ours, theirs] of Object.entries(items)) {
              const v = r.items[ours];
              row[theirs] = typeof v === "number" ? twoDecimals(MAGNITUDES.has(theirs) ? Math.abs(v) : v) : null;
            }
            return [r.periodEnd, row];
          }),
      );
    const yearly = of("annual");
    const quarterly = of("quarterly");
    out[name] = { currency_symbol: currency, quarterly, yearly };
    if (label && (Object.keys(yearly).length || Object.keys(quarterly).length)) labels[name] = label;
  }
  if (Object.keys(labels).length) sources.Financials = labels;
  return out;
}
