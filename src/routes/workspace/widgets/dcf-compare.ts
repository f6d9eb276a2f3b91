import { compareDcf } from "../../../services/dcf/get-dcf";
import type { WidgetRoutes } from "../define";
import { valuationWidget } from "../valuation";

export function registerDcfCompareWidget(routes: WidgetRoutes) {
  routes.add(
    valuationWidget(
      "/compare",
      "svc_dcf_compare",
      "the fcf, eps and ddm values side by side, with their consensus",
      "Feeds the svc_dcf_compare table widget: the fcf, eps and ddm values of /dcf/{ticker}/compare side by side with their weighted consensus, one row per model. Any key; a ticker never enriched is enriched first.",
      compareDcf,
    ),
  );
}
