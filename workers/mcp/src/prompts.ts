import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";

/** The prompts: a worked way through the tools for a task an agent is often given. */
export const PROMPTS = [
  {
    name: "value_company",
    title: "Value a company",
    description:
      "Values a listed company with the service's DCF tools: its fundamentals, the default valuation, the three models side by side, the sensitivity grid and the risk-free rate, then a reasoned conclusion",
    arguments: [{ name: "ticker", description: "The listing's ticker, e.g. AAPL or ASML.AS", required: true }],
  },
] as const;

/** The messages of a prompt, or null for a name that is not one. */
export function promptMessages(name: string, args: Record<string, string>): GetPromptResult | null {
  if (name !== "value_company") return null;
  const ticker = (args.ticker ?? "").trim().toUpperCase();
  return {
    description: `A valuation of ${ticker} with the DCF tools`,
    messages: [
      {
        role: "user",
        content: {
          type: "text",
          text: [
            `Value ${ticker} with the market-data tools, in this order:`,
            `1. get_fundamentals (ticker=${ticker}): what the company earns, owes and pays out, and where each figure comes from.`,
            `2. get_dcf_valuation (ticker=${ticker}): the default free-cash-flow valuation; note its assumptions and warnings.`,
            `3. compare_dcf_models (ticker=${ticker}): the fcf, eps and ddm models beside the analysts' target.`,
            `4. get_dcf_sensitivity (ticker=${ticker}): how the value per share moves with the discount rate and terminal growth.`,
            "5. get_risk_free_rate: the rate the discounting starts from, and its date.",
            "If a figure looks wrong, run_dcf_valuation takes your own assumptions. Conclude with a value range, the price it compares with, the assumptions it rests on most, and the sources of the figures; say plainly what data was missing.",
          ].join("\n"),
        },
      },
    ],
  };
}
