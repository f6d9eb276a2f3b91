import { decimalOrNull } from "../../../domain/numbers";
import { growthColumn, type Row } from "../../../domain/workspace/tables";
import { dcfSensitivity } from "../../../services/dcf/sensitivity";
import { withEnrichment } from "../../../services/workspace/first-view";
import { DcfTicker } from "../../dcf/route-parts";
import { SensitivityQuery, sensitivityInput } from "../../dcf/sensitivity-query";
import type { WidgetRoutes } from "../define";
import { DCF_NETS } from "../valuation";

export function registerDcfSensitivityWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/dcf/{ticker}/sensitivity",
    queryPath: "/workspace/dcf/sensitivity",
    kind: "table",
    description:
      "Feeds the svc_dcf_sensitivity table widget: the /dcf/{ticker}/sensitivity grid as one row per discount rate and one `growth_<bp>bp` column per terminal growth. Any key; a ticker never enriched is enriched first.",
    summary: "svc_dcf_sensitivity: value per share, one row per discount rate, one column per terminal growth",
    params: { ticker: DcfTicker },
    query: SensitivityQuery,
    errors: [404],
    extensions: DCF_NETS,
    handle: async (c, q) => {
      const ctx = c.get("deps");
      const { ticker, ...rest } = q;
      const input = sensitivityInput(ticker, rest);
      const r = await withEnrichment(ctx, ticker, () => dcfSensitivity({ ctx, input }));
      return r.matrix.map((cells, i) => {
        const row: Row = { discount_rate: decimalOrNull(r.wacc_range[i]) };
        for (const cell of cells) row[growthColumn(cell.growth)] = decimalOrNull(cell.intrinsic_value_per_share);
        return row;
      });
    },
  });
}
