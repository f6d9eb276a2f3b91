import { getDcf } from "../../../services/dcf/get-dcf";
import type { WidgetRoutes } from "../define";
import { valuationWidget } from "../valuation";

export function registerDcfWidget(routes: WidgetRoutes) {
  routes.add(
    valuationWidget(
      "",
      "svc_dcf",
      "the default valuation (fcf) and its consensus as rows",
      "Feeds the svc_dcf table widget: the default fcf valuation of /dcf/{ticker} and its consensus as rows (value per share, upside, discount rate, weight, currency). Any key; a ticker never enriched is enriched first instead of answering 404.",
      getDcf,
    ),
  );
}
