import type { App } from "../domain/workspace/widget-types";

/** apps.json: two dashboards, European markets, and the screener with the macro view. */
export const APPS: readonly App[] = [
  {
    name: "EU markets",
    description: "A European share: its quote, prices, fundamentals, valuation and news, one ticker for all",
    img: "",
    img_dark: "",
    img_light: "",
    allowCustomization: true,
    tabs: {
      overview: {
        id: "overview",
        name: "Overview",
        layout: [
          { i: "svc_quote", x: 0, y: 2, w: 12, h: 5, groups: ["Group 1"] },
          { i: "svc_macro_rates", x: 12, y: 2, w: 10, h: 5 },
          {
            i: "svc_quotes_batch",
            x: 22,
            y: 2,
            w: 18,
            h: 10,
            state: { params: { tickers: "MC.PA,SAP.DE,ASML.AS,OR.PA,SIE.DE" } },
          },
          { i: "svc_eod", x: 0, y: 7, w: 22, h: 14, groups: ["Group 1"] },
          { i: "svc_dcf_compare", x: 22, y: 12, w: 18, h: 9, groups: ["Group 1"] },
          { i: "svc_fundamentals", x: 0, y: 21, w: 20, h: 16, groups: ["Group 1"] },
          { i: "svc_news", x: 20, y: 21, w: 20, h: 16, groups: ["Group 1"] },
        ],
      },
      index: {
        id: "index",
        name: "CAC 40",
        layout: [{ i: "svc_index_constituents", x: 0, y: 2, w: 40, h: 16, state: { params: { index_name: "cac40" } } }],
      },
    },
    groups: [
      {
        name: "Group 1",
        type: "param",
        paramName: "ticker",
        defaultValue: "MC.PA",
        widgetIds: ["svc_quote", "svc_eod", "svc_dcf_compare", "svc_fundamentals", "svc_news"],
      },
    ],
    prompts: [],
  },
  {
    name: "Screener and macro",
    description: "Oversold catalogue shares, the risk-free rate and the news, with the quote and chart of one ticker",
    img: "",
    img_dark: "",
    img_light: "",
    allowCustomization: true,
    tabs: {
      screen: {
        id: "screen",
        name: "Screener",
        layout: [
          { i: "svc_screener", x: 0, y: 2, w: 18, h: 14 },
          { i: "svc_macro_rates", x: 18, y: 2, w: 10, h: 5 },
          { i: "svc_quote", x: 28, y: 2, w: 12, h: 5, groups: ["Group 1"] },
          { i: "svc_technical_chart", x: 18, y: 7, w: 22, h: 18, groups: ["Group 1"] },
          { i: "svc_news_feed", x: 0, y: 16, w: 18, h: 14 },
        ],
      },
    },
    groups: [
      {
        name: "Group 1",
        type: "param",
        paramName: "ticker",
        defaultValue: "AAPL",
        widgetIds: ["svc_quote", "svc_technical_chart"],
      },
    ],
    prompts: [],
  },
];
