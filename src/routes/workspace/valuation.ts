import { decimalOrNull } from "../../domain/numbers";
import type { Row } from "../../domain/workspace/tables";
import type { compareDcf, getDcf } from "../../services/dcf/get-dcf";
import { withEnrichment } from "../../services/workspace/first-view";
import { DcfTicker, ENRICHED_FIRST, forceRefresh } from "../dcf/route-parts";
import type { DcfResultBody } from "../dcf/schema";
import type { WidgetRoute } from "./define";

/** For the generated nets, as on /dcf: the valuation reads the enrichment, and may store the risk-free rate. */
export const DCF_NETS = { "x-writes": true, "x-precondition": ENRICHED_FIRST };

/** A valuation's models (and their consensus) as rows: value per share, upside, the rate it was discounted at. */
function valuationRows(v: DcfResultBody): Row[] {
  const rows: Row[] = [];
  for (const [key, m] of Object.entries(v.models)) {
    if (!m) continue;
    rows.push({
      model: key,
      name: m.model_name,
      intrinsic_value_per_share: decimalOrNull(m.intrinsic_value_per_share),
      upside_pct: decimalOrNull(m.upside_pct),
      discount_rate: decimalOrNull(m.discount_rate),
      discount_rate_basis: m.discount_rate_basis,
      weight: decimalOrNull(v.consensus_weights[key]),
      currency: v.currency,
      reason: m.reason,
    });
  }
  rows.push({
    model: "consensus",
    name: "Weighted consensus",
    intrinsic_value_per_share: decimalOrNull(v.consensus_value),
    upside_pct: decimalOrNull(v.consensus_upside_pct),
    discount_rate: decimalOrNull(v.wacc.wacc),
    discount_rate_basis: "wacc",
    weight: 1,
    currency: v.currency,
    reason: null,
  });
  return rows;
}

/** The default valuation and the three models: the same parameters and rows, another service call. */
export function valuationWidget(
  suffix: "" | "/compare",
  widget: string,
  summary: string,
  description: string,
  valuation: typeof getDcf | typeof compareDcf,
): WidgetRoute<{ ticker: typeof DcfTicker }, { force_refresh: typeof forceRefresh }> {
  return {
    path: `/workspace/dcf/{ticker}${suffix}`,
    queryPath: `/workspace/dcf${suffix}`,
    kind: "table",
    summary: `${widget}: ${summary}`,
    description,
    params: { ticker: DcfTicker },
    query: { force_refresh: forceRefresh },
    errors: [404],
    extensions: DCF_NETS,
    handle: async (c, q) => {
      const ctx = c.get("deps");
      const input = { ticker: q.ticker, forceRefresh: q.force_refresh };
      return valuationRows(await withEnrichment(ctx, q.ticker, () => valuation({ ctx, input })));
    },
  };
}
