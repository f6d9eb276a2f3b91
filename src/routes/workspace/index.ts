import { createApi } from "../openapi";
import { WidgetRoutes } from "./define";
import { registerGetApps } from "./get-apps";
import { registerGetWidgets } from "./get-widgets";
import { registerDcfWidget } from "./widgets/dcf";
import { registerDcfCompareWidget } from "./widgets/dcf-compare";
import { registerDcfSensitivityWidget } from "./widgets/dcf-sensitivity";
import { registerDividendsWidget } from "./widgets/dividends";
import { registerEodWidget } from "./widgets/eod";
import { registerEtfDetailsWidget } from "./widgets/etf-details";
import { registerExchangeCalendarWidget } from "./widgets/exchange-calendar";
import { registerFundamentalsWidget } from "./widgets/fundamentals";
import { registerFundamentalsDeepWidget } from "./widgets/fundamentals-deep";
import { registerHistoryWidget } from "./widgets/history";
import { registerIndexConstituentsWidget } from "./widgets/index-constituents";
import { registerInsiderTransactionsWidget } from "./widgets/insider-transactions";
import { registerIntradayWidget } from "./widgets/intraday";
import { registerMacroRatesWidget } from "./widgets/macro-rates";
import { registerNewsWidget } from "./widgets/news";
import { registerNewsFeedWidget } from "./widgets/news-feed";
import { registerQuoteWidget } from "./widgets/quote";
import { registerQuotesWidget } from "./widgets/quotes";
import { registerScreenerWidget } from "./widgets/screener";
import { registerScreenerConditionsWidget } from "./widgets/screener-conditions";
import { registerTechnicalWidget } from "./widgets/technical";
import { registerTechnicalChartWidget } from "./widgets/technical-chart";
import { registerTechnicalMultiWidget } from "./widgets/technical-multi";

/** The analytics workspace's backend: its discovery files and the 19 widget routes (each in two forms where it has a path parameter). */
export const workspaceApi = createApi();
// GET /widgets.json and /apps.json: what the workspace reads when a user adds the backend.
registerGetWidgets(workspaceApi);
registerGetApps(workspaceApi);
const widgets = new WidgetRoutes();
// svc_quote and svc_macro_rates: metric tiles.
registerQuoteWidget(widgets);
registerMacroRatesWidget(widgets);
// svc_eod, svc_intraday, svc_history, svc_technical, svc_technical_multi, svc_technical_chart, svc_dividends: Plotly figures.
registerDividendsWidget(widgets);
registerIntradayWidget(widgets);
registerEodWidget(widgets);
registerHistoryWidget(widgets);
registerTechnicalWidget(widgets);
registerTechnicalMultiWidget(widgets);
registerTechnicalChartWidget(widgets);
// The rendered fundamentals and the deep document: one row per figure, by section.
registerFundamentalsWidget(widgets);
registerFundamentalsDeepWidget(widgets);
// Quotes, the screener, news, valuations, insiders, ETFs and indices.
registerQuotesWidget(widgets);
registerScreenerWidget(widgets);
registerScreenerConditionsWidget(widgets);
registerNewsWidget(widgets);
registerNewsFeedWidget(widgets);
registerDcfWidget(widgets);
registerDcfCompareWidget(widgets);
registerDcfSensitivityWidget(widgets);
registerInsiderTransactionsWidget(widgets);
registerEtfDetailsWidget(widgets);
registerIndexConstituentsWidget(widgets);
registerExchangeCalendarWidget(widgets);
widgets.registerOn(workspaceApi);
