/**
 * The one place that says how the simulators may differ from the real providers' recorded answers
 * (test/fixtures/recorded), checked by test/unit/recorded-shapes.test.ts.
 *
 * SIM_REQUESTS: the simulator's request that stands for each recording's: the same path and
 * parameters, with the sandbox's keys and session, and, where the sandbox has not the recorded
 * instrument, one of the same kind (said in `because`).
 *
 * RECORDED_DIFFERENCES: every departure of a simulator's answer from the recording's structure,
 * by path (a trailing `*` covers a subtree), with why it is allowed.
 */

export type SimTarget = "delayed" | "ecb" | "edgar" | "fred" | "news" | "scraped" | "stream";

export interface SimRequest {
  sim: SimTarget;
  /** Path and query on the simulator; `{crumb}`, `{fredKey}`, `{newsKey}` are filled in by the test. */
  path: string;
  /** Why the request differs from the recorded one, where it does. */
  because?: string;
  /** A fault the simulator is given first, for a recording of the provider's error (`key` as its control takes it). */
  fault?: { key: string; mode: string };
}

const UK = "the sandbox's catalogue has no London share; SWDA.L is its London line quoted in pence";
const UK_SHARE =
  "the sandbox's London lines are funds; a share of another venue (Allianz on Xetra) has the share's modules";
const NO_FUND_QQQ = "the sandbox's catalogue has no QQQ; CSPX.L is one of its ETFs";

export const SIM_REQUESTS: Record<string, SimRequest> = {
  "delayed_provider/chart-AAPL.json": {
    sim: "delayed",
    path: "/v8/finance/chart/AAPL?useYfid=true&interval=1d&includePrePost=true&events=div%7Csplit%7Cearn&lang=en-US&period1=1645488000&period2=1645574400",
  },
  "delayed_provider/chart-AAPL-2020-09-to-11-split-div.json": {
    sim: "delayed",
    path: "/v8/finance/chart/AAPL?useYfid=true&interval=1d&includePrePost=true&events=div%7Csplit%7Cearn&lang=en-US&period1=1598832000&period2=1604707200",
  },
  "delayed_provider/chart-london.json": {
    sim: "delayed",
    path: "/v8/finance/chart/SWDA.L?useYfid=true&interval=1d&includePrePost=true&events=div%7Csplit%7Cearn&lang=en-US&period1=1577836800&period2=1578009600",
    because: UK,
  },
  "delayed_provider/chart-xetra.json": {
    sim: "delayed",
    path: "/v8/finance/chart/ALV.DE?useYfid=true&interval=1d&includePrePost=true&events=div%7Csplit%7Cearn&lang=en-US&period1=1691107200&period2=1691539200",
    because: "the sandbox's catalogue has no WashTec; Allianz is one of its Xetra shares",
  },
  "delayed_provider/chart-IBM-5m-5d.json": { sim: "delayed", path: "/v8/finance/chart/IBM?range=5d&interval=5m" },
  "delayed_provider/chart-NVDA-2021-split-4-1.json": {
    sim: "delayed",
    path: "/v8/finance/chart/NVDA?useYfid=true&interval=1d&includePrePost=true&events=split&lang=en-US&period1=1612137600&period2=1643587200",
  },
  "delayed_provider/chart-0700.HK-1d-1y.json": {
    sim: "delayed",
    path: "/v8/finance/chart/3000.HK?interval=1d&range=1y",
    because: "the sandbox's world holds no Tencent; 3000.HK is the first of its Hong Kong shares",
  },
  "delayed_provider/chart-EURUSD=X-2020-01-01-to-03.json": {
    sim: "delayed",
    path: "/v8/finance/chart/EURUSD=X?useYfid=true&interval=1d&includePrePost=true&events=div%7Csplit%7Cearn&lang=en-US&period1=1577836800&period2=1578009600",
  },
  "delayed_provider/chart-INR=X-with-null.json": {
    sim: "delayed",
    path: "/v8/finance/chart/EURINR=X?interval=1d&period1=1499558400&period2=1499990400",
    because:
      "the sandbox simulates the euro's pairs, the ones the service asks for; EURINR=X stands for the recorded USD/INR",
  },
  "delayed_provider/search-BMW-name.json": {
    sim: "delayed",
    path: "/v1/finance/search?q=Bayerische+Motoren+Werke&lang=en-US&region=US&quotesCount=6&newsCount=4&enableFuzzyQuery=false",
    because:
      "the sandbox names BMW by its full legal name (Aktiengesellschaft); its name search matches a part of the name",
  },
  "delayed_provider/search-AAPL.json": {
    sim: "delayed",
    path: "/v1/finance/search?q=AAPL&lang=en-US&region=US&quotesCount=6&newsCount=4&enableFuzzyQuery=false",
  },
  "delayed_provider/search-sedol-BJ0CDD2.json": {
    sim: "delayed",
    path: "/v1/finance/search?q=US0378331005&lang=en-US&region=US&quotesCount=6&newsCount=4&enableFuzzyQuery=false",
    because: "the sandbox searches ISINs, not SEDOLs: an identifier search it answers",
  },
  "delayed_provider/quoteSummary-AAPL-all.json": {
    sim: "delayed",
    path: "/v10/finance/quoteSummary/AAPL?formatted=false&modules=assetProfile%2CbalanceSheetHistory%2CbalanceSheetHistoryQuarterly%2CcalendarEvents%2CcashflowStatementHistory%2CcashflowStatementHistoryQuarterly%2CdefaultKeyStatistics%2Cearnings%2CearningsHistory%2CearningsTrend%2CfinancialData%2CfundOwnership%2CfundPerformance%2CfundProfile%2CincomeStatementHistory%2CincomeStatementHistoryQuarterly%2CindexTrend%2CindustryTrend%2CinsiderHolders%2CinsiderTransactions%2CinstitutionOwnership%2CmajorDirectHolders%2CmajorHoldersBreakdown%2CnetSharePurchaseActivity%2Cprice%2CquoteType%2CrecommendationTrend%2CsecFilings%2CsectorTrend%2CsummaryDetail%2CsummaryProfile%2CtopHoldings%2CupgradeDowngradeHistory&crumb={crumb}",
  },
  "delayed_provider/quoteSummary-etf-QQQ.json": {
    sim: "delayed",
    path: "/v10/finance/quoteSummary/CSPX.L?formatted=false&modules=assetProfile%2CbalanceSheetHistory%2CbalanceSheetHistoryQuarterly%2CcalendarEvents%2CcashflowStatementHistory%2CcashflowStatementHistoryQuarterly%2CdefaultKeyStatistics%2Cearnings%2CearningsHistory%2CearningsTrend%2CfinancialData%2CfundOwnership%2CfundPerformance%2CfundProfile%2CincomeStatementHistory%2CincomeStatementHistoryQuarterly%2CindexTrend%2CindustryTrend%2CinsiderHolders%2CinsiderTransactions%2CinstitutionOwnership%2CmajorDirectHolders%2CmajorHoldersBreakdown%2CnetSharePurchaseActivity%2Cprice%2CquoteType%2CrecommendationTrend%2CsecFilings%2CsectorTrend%2CsummaryDetail%2CsummaryProfile%2CtopHoldings%2CupgradeDowngradeHistory&crumb={crumb}",
    because: NO_FUND_QQQ,
  },
  "delayed_provider/quoteSummary-london-OCDO.L.json": {
    sim: "delayed",
    path: "/v10/finance/quoteSummary/ALV.DE?formatted=false&modules=price&crumb={crumb}",
    because: UK_SHARE,
  },
  "delayed_provider/quoteSummary-london-OCDO.L-summaryDetail.json": {
    sim: "delayed",
    path: "/v10/finance/quoteSummary/ALV.DE?formatted=false&modules=summaryDetail&crumb={crumb}",
    because: UK_SHARE,
  },
  "delayed_provider/fundamentalsTimeSeries-AAPL-financials-annual.json": {
    sim: "delayed",
    path: "{recorded}",
  },
  "delayed_provider/fundamentalsTimeSeries-AAPL-balance-sheet-quarterly.json": {
    sim: "delayed",
    path: "{recorded}",
  },
  "delayed_provider/fundamentalsTimeSeries-AAPL-financials-quarterly.json": {
    sim: "delayed",
    path: "{recorded}",
  },
  "delayed_provider/fundamentalsTimeSeries-AAPL-balance-sheet-annual.json": {
    sim: "delayed",
    path: "{recorded}",
  },
  "delayed_provider/fundamentalsTimeSeries-AAPL-cash-flow-annual.json": {
    sim: "delayed",
    path: "{recorded}",
  },
  "delayed_provider/fundamentalsTimeSeries-AAPL-cash-flow-quarterly.json": {
    sim: "delayed",
    path: "{recorded}",
  },
  "delayed_provider/getCrumb-cookie-quote-AAPL.json": { sim: "delayed", path: "/quote/AAPL" },
  "delayed_provider/getCrumb-getcrumb.json": { sim: "delayed", path: "/v1/test/getcrumb" },
  "delayed_provider/quote-AAPL.json": { sim: "delayed", path: "/v7/finance/quote?symbols=AAPL&crumb={crumb}" },
  "sec_edgar/company-tickers.json": { sim: "edgar", path: "/files/company_tickers.json" },
  "sec_edgar/submissions-0001318605.json": {
    sim: "edgar",
    path: "/submissions/CIK0000320193.json",
    because: "the sandbox's registrants are the catalogue's; Apple stands for Tesla",
  },
  "sec_edgar/form4-374water-scwo-2025-04-30.json": {
    sim: "edgar",
    path: "/Archives/edgar/data/320193/000032019326000129/wk-form4_1793395800.xml",
    because: "the recording's accession is unknown and its issuer not in the sandbox; one of Apple's simulated Form 4s",
  },
  "sec_edgar/form4-snow-scarpelli-2022-12-13.json": {
    sim: "edgar",
    path: "/Archives/edgar/data/320193/000032019326000129/wk-form4_1793395800.xml",
    because: "the recording's accession is unknown and its issuer not in the sandbox; one of Apple's simulated Form 4s",
  },
  "macro_provider/observations-DGS10.json": {
    sim: "fred",
    path: "/fred/series/observations?api_key={fredKey}&file_type=json&observation_start=2026-10-21&series_id=DGS10",
    because: "the sandbox's series covers the simulated years, not 2024",
  },
  "macro_provider/observations-GNPCA-limit20.json": {
    sim: "fred",
    path: "/fred/series/observations?series_id=DGS10&limit=20&api_key={fredKey}&file_type=json",
    because: "the sandbox serves DGS10 only",
  },
  "macro_provider/observations-GNPCA-empty.json": {
    sim: "fred",
    path: "/fred/series/observations?series_id=DGS10&observation_start=2050-01-01&api_key={fredKey}&file_type=json",
    because: "the sandbox serves DGS10 only",
  },
  "ecb_reference_rates/daily-2023-02-21.json": { sim: "ecb", path: "{recorded}" },
  "ecb_reference_rates/hist-90d-2018-easter.json": { sim: "ecb", path: "{recorded}" },
  "ecb_reference_rates/hist-90d-2018-may-day.json": { sim: "ecb", path: "{recorded}" },
  "ecb_reference_rates/exr-csvdata-dataonly-PLN.json": {
    sim: "ecb",
    path: "/service/data/EXR/D.PLN.EUR.SP00.A?startPeriod=2026-08-03&endPeriod=2026-08-08&format=csvdata&detail=dataonly",
    because: "the sandbox takes windows, not lastNObservations: the recorded week's",
  },
  "ecb_reference_rates/data-api-404-no-results.json": {
    sim: "ecb",
    path: "/service/data/EXR/D.USD.EUR.SP00.A?startPeriod=2026-11-21&endPeriod=2026-11-22&format=csvdata",
    because:
      "the recording is of another dataset (BSI); the same answer for a window without a publication (a weekend)",
  },
  "macro_provider/observations-IRLTLT01USM156N.json": {
    sim: "fred",
    path: "/fred/series/observations?series_id=IRLTLT01USM156N&api_key={fredKey}&file_type=json&observation_start=2024-04-01",
    because: "the sandbox's series covers the simulated years, not 2020 to 2023",
  },
  "macro_provider/observations-DEXUSEU.json": {
    sim: "fred",
    path: "/fred/series/observations?series_id=DEXUSEU&api_key={fredKey}&file_type=json&observation_start=2026-01-02&observation_end=2026-06-01",
    because: "the sandbox's series covers the simulated years, not 2015",
  },
  "macro_provider/fred-error-bad-series-id.json": {
    sim: "fred",
    path: "/fred/series/observations?series_id=bad_series_id&api_key={fredKey}&file_type=json",
  },
  "yahoo_finance_rss/tsla-headline.json": { sim: "news", path: "/rss/2.0/headline?s=TSLA&region=US&lang=en-US" },
  "google_news_rss/apple-search.json": {
    sim: "news",
    path: "/rss/search?q=%22Apple%22%20AAPL&hl=en-US&gl=US&ceid=US:en",
    because: "the sandbox answers the service's own query form (company name and ticker)",
  },
  "finnhub/aapl-company-news-2021-03.json": {
    sim: "news",
    path: "/api/v1/company-news?symbol=AAPL&from=2026-11-20&to=2026-11-27&token={newsKey}",
    because: "the sandbox's stories are of the simulated days",
  },
  "marketaux/news-all-2022-05-02.json": {
    sim: "news",
    path: "/v1/news/all?symbols=AAPL&filter_entities=true&language=en&limit=3&api_token={newsKey}",
    because: "the service always names the symbol",
  },
  "newsapi/everything-bitcoin-2019.json": {
    sim: "news",
    path: "/v2/everything?q=%22Apple%22%20AND%20AAPL&language=en&sortBy=publishedAt&pageSize=20&apiKey={newsKey}",
    because: "the sandbox answers the service's own query form",
  },
  "newsapi/top-headlines-q-newyork-2024-12.json": {
    sim: "news",
    path: "/v2/everything?q=%22Apple%22%20AND%20AAPL&language=en&sortBy=publishedAt&pageSize=3&apiKey={newsKey}",
    because: "the service asks /everything; top-headlines has the same envelope",
  },
  "alpha_vantage/news-sentiment-2024-01-03.json": {
    sim: "news",
    path: "/query?function=NEWS_SENTIMENT&tickers=AAPL&limit=50&sort=LATEST&apikey={newsKey}",
    because: "the service always names the ticker",
  },
  "gdelt/artlist-vizhinjam-2024.json": {
    sim: "news",
    path: "/api/v2/doc/doc?query=%22Apple%22%20sourcelang%3Aenglish&mode=ArtList&format=json&maxrecords=75&sort=DateDesc&timespan=7d",
    because: "the sandbox answers the service's own query form",
  },
  "gdelt/error-200-keyword-plaintext.json": {
    sim: "news",
    path: "/api/v2/doc/doc?query=%22Apple%22%20sourcelang%3Aenglish&mode=ArtList&format=json&maxrecords=75&sort=DateDesc&timespan=7d",
    because: "the sandbox sends GDELT's refusal with HTTP 200 on demand (its error200 fault)",
    fault: { key: "gdelt:AAPL", mode: "error200" },
  },
  "gdelt/error-429-rate-limited.json": {
    sim: "news",
    path: "/api/v2/doc/doc?query=%22Apple%22%20sourcelang%3Aenglish&mode=ArtList&format=json&maxrecords=75&sort=DateDesc&timespan=7d",
    because: "the sandbox sends GDELT's rate-limit notice on demand (its ratelimit fault)",
    fault: { key: "gdelt:AAPL", mode: "ratelimit" },
  },
  "scraped_businessinsider/search-suggest-AAPL.json": {
    sim: "scraped",
    path: "/ajax/SearchController_Suggest?max_results=25&query=AAPL",
  },
  "stream_provider/handshake-frame.json": { sim: "stream", path: "/socket.io/websocket?from=chart&type=chart" },
};

export interface RecordedDifference {
  /** Recording files (`provider/file`, a trailing `*` for several). */
  files: string[];
  kind: "missing" | "extra" | "type";
  /** Folded key paths (tools/sandbox/shape.ts); a trailing `*` covers everything below. */
  paths: string[];
  reason: string;
}

const QS = "quoteSummary.result[]";
const SUMMARIES = [
  "delayed_provider/quoteSummary-AAPL-all.json",
  "delayed_provider/quoteSummary-etf-QQQ.json",
  "delayed_provider/quoteSummary-london-OCDO.L.json",
  "delayed_provider/quoteSummary-london-OCDO.L-summaryDetail.json",
];
const CHARTS = [
  "delayed_provider/chart-AAPL.json",
  "delayed_provider/chart-AAPL-2020-09-to-11-split-div.json",
  "delayed_provider/chart-NVDA-2021-split-4-1.json",
  "delayed_provider/chart-london.json",
  "delayed_provider/chart-xetra.json",
  "delayed_provider/chart-0700.HK-1d-1y.json",
  "delayed_provider/chart-EURUSD=X-2020-01-01-to-03.json",
  "delayed_provider/chart-INR=X-with-null.json",
];
const SEARCHES = [
  "delayed_provider/search-AAPL.json",
  "delayed_provider/search-sedol-BJ0CDD2.json",
  "delayed_provider/search-BMW-name.json",
];
const FORM4S = ["sec_edgar/form4-374water-scwo-2025-04-30.json", "sec_edgar/form4-snow-scarpelli-2022-12-13.json"];
const RSS = ["yahoo_finance_rss/tsla-headline.json", "google_news_rss/apple-search.json"];
const FORM4 = "ownershipDocument[]";
const NOT_READ = "not read by the service; the simulator leaves it out";

/**
 * A read field is never excused here: test/unit/recorded-shapes.test.ts fails on any field of
 * SUMMARY_SCHEMA (what the service reads of quoteSummary) that the simulator leaves out.
 */
export const RECORDED_DIFFERENCES: RecordedDifference[] = [
  {
    files: SUMMARIES,
    kind: "missing",
    paths: [
      "indexTrend",
      "industryTrend",
      "sectorTrend",
      "insiderHolders",
      "insiderTransactions",
      "majorDirectHolders",
      "netSharePurchaseActivity",
      "upgradeDowngradeHistory",
      "secFilings",
      "summaryProfile",
      "earnings",
      "fundPerformance",
      "incomeStatementHistoryQuarterly",
      "balanceSheetHistoryQuarterly",
      "cashflowStatementHistoryQuarterly",
    ].map((m) => `${QS}.${m}*`),
    reason: "a module the service never asks for: the simulator does not produce it",
  },
  {
    files: SUMMARIES,
    kind: "missing",
    paths: [
      "assetProfile.state",
      "assetProfile.irWebsite",
      "assetProfile.executiveTeam",
      "assetProfile.companyOfficers[].exercisedValue.longFmt",
      "assetProfile.companyOfficers[].unexercisedValue.longFmt",
      "defaultKeyStatistics.sharesShortPriorMonth",
      "defaultKeyStatistics.sharesShortPreviousMonthDate",
      "defaultKeyStatistics.dateShortInterest",
      "defaultKeyStatistics.sharesPercentSharesOut",
      "defaultKeyStatistics.impliedSharesOutstanding",
      "defaultKeyStatistics.SandP52WeekChange",
      "defaultKeyStatistics.latestShareClass",
      "defaultKeyStatistics.leadInvestor",
      "defaultKeyStatistics.threeYearAverageReturn",
      "defaultKeyStatistics.fiveYearAverageReturn",
      "summaryDetail.regularMarketOpen",
      "summaryDetail.regularMarketDayLow",
      "summaryDetail.regularMarketDayHigh",
      "summaryDetail.regularMarketVolume",
      "summaryDetail.averageVolume10days",
      "summaryDetail.averageDailyVolume10Day",
      "summaryDetail.bid*",
      "summaryDetail.ask*",
      "summaryDetail.coinMarketCapLink",
      "summaryDetail.allTimeHigh",
      "summaryDetail.allTimeLow",
      "summaryDetail.fulldayPrice",
      "summaryDetail.fulldayChange*",
      "summaryDetail.nonDilutedMarketCap",
      "summaryDetail.{series}",
      "price.preMarket*",
      "price.postMarket*",
      "price.regularMarketDayHigh",
      "price.regularMarketDayLow",
      "price.regularMarketOpen",
      "price.regularMarketSource",
      "price.averageDailyVolume10Day",
      "price.averageDailyVolume3Month",
      "price.fulldayPrice",
      "price.fulldayChange*",
      "earningsTrend.trend[].earningsEstimate.numberOfAnalysts.longFmt",
      "earningsTrend.trend[].earningsEstimate.earningsCurrency",
      "earningsTrend.trend[].revenueEstimate.numberOfAnalysts.longFmt",
      "earningsTrend.trend[].revenueEstimate.revenueCurrency",
      "earningsTrend.trend[].epsTrend.epsTrendCurrency",
      "earningsTrend.trend[].epsRevisions*",
      "incomeStatementHistory.incomeStatementHistory[].grossProfit.*",
      "incomeStatementHistory.incomeStatementHistory[].totalOperatingExpenses.*",
      "incomeStatementHistory.incomeStatementHistory[].ebit.*",
      "incomeStatementHistory.incomeStatementHistory[].incomeTaxExpense.*",
      "fundProfile.feesExpensesInvestmentCat.totalNetAssets",
      "topHoldings.bondRatings[]*",
    ].map((p) => `${QS}.${p}`),
    reason: NOT_READ,
  },
  {
    files: ["delayed_provider/quoteSummary-london-OCDO.L-summaryDetail.json"],
    kind: "extra",
    paths: ["dividendRate", "dividendYield", "fiveYearAvgDividendYield", "exDividendDate"].map(
      (p) => `${QS}.summaryDetail.${p}`,
    ),
    reason:
      "the recorded share pays no dividend, and the provider then leaves the dividend fields out; the stand-in pays one",
  },
  {
    files: ["delayed_provider/quoteSummary-AAPL-all.json"],
    kind: "extra",
    paths: [`${QS}.defaultKeyStatistics.pegRatio`],
    reason:
      "the provider sends it for some instruments and not others (absent in this recording); the service reads it when sent",
  },
  {
    files: ["delayed_provider/quoteSummary-AAPL-all.json"],
    kind: "extra",
    paths: [`${QS}.earningsHistory.defaultMethodology`, `${QS}.earningsTrend.defaultMethodology`],
    reason:
      "absent in this 2025 recording, sent in later answers (yahoo-finance2's schema of them requires it); the simulator sends the later form, the replay tests the earlier",
  },
  {
    files: ["delayed_provider/fundamentalsTimeSeries-AAPL-*"],
    kind: "missing",
    paths: [
      "timeseries.result[].{series}[].businessSegmentData*",
      "timeseries.result[].{series}[].geographicSegmentData*",
    ],
    reason:
      "revenue and assets by segment and region beside a reported value: the service reads the reported value only",
  },
  {
    files: CHARTS,
    kind: "missing",
    paths: [
      "exchangeTimezoneName",
      "regularMarketChangePercent",
      "fulldayPrice",
      "fulldayChange*",
      "fiftyTwoWeekHigh",
      "fiftyTwoWeekLow",
      "currentTradingPeriod*",
      "validRanges*",
    ].map((p) => `chart.result[].meta.${p}`),
    reason: NOT_READ,
  },
  {
    files: ["delayed_provider/chart-AAPL-2020-09-to-11-split-div.json"],
    kind: "missing",
    paths: ["chart.result[].events.dividends*"],
    reason:
      "the simulated AAPL paid no dividend in this window (its dividends fall on other days); events come only when there are some, as the provider sends them",
  },
  {
    files: ["delayed_provider/chart-NVDA-2021-split-4-1.json"],
    kind: "missing",
    paths: ["chart.result[].events*"],
    reason:
      "the simulated NVDA splits once, 10:1 in June 2024 (its split-adjusted history before it); the real 4:1 of July 2021 is not simulated, and events come only when there are some",
  },
  {
    files: ["delayed_provider/quote-AAPL.json"],
    kind: "missing",
    paths: ["quoteResponse.result[]*"],
    reason:
      "the v7 quote's other fields (bid/ask, averages, earnings dates, ...): the service reads price, change, volume, time, currency and exchange only",
  },
  {
    files: SEARCHES,
    kind: "missing",
    paths: [
      "quotes[].sector*",
      "quotes[].industry*",
      "quotes[].dispSecIndFlag",
      "quotes[].name",
      "quotes[].permalink",
      "news[]*",
      "screenerFieldResults",
      "timeTakenFor*",
    ],
    reason: "search results' classification, news and timings: the service reads symbol, exchange, type and names only",
  },
  {
    files: ["delayed_provider/search-BMW-name.json"],
    kind: "missing",
    paths: ["nav[]*", "lists[]*"],
    reason:
      "a company name's navigation links and users' watchlists: the service reads the quotes only, and the simulator sends both lists empty",
  },
  {
    files: RSS,
    kind: "missing",
    paths: [
      "?xml[].@standalone*",
      "rss[].@xmlns:media*",
      "rss[].channel[].generator*",
      "rss[].channel[].language*",
      "rss[].channel[].webMaster*",
      "rss[].channel[].copyright*",
      "rss[].channel[].lastBuildDate*",
      "rss[].channel[].image*",
    ],
    reason: "channel metadata of the feed: the service reads the items only",
  },
  {
    files: ["marketaux/news-all-2022-05-02.json"],
    kind: "missing",
    paths: [
      "data[].entities[].exchange*",
      "data[].entities[].country",
      "data[].entities[].industry",
      "data[].entities[].highlights[]*",
    ],
    reason: "entity details beyond the symbol: the service reads the entities' symbols only",
  },
  {
    files: ["sec_edgar/submissions-0001318605.json"],
    kind: "missing",
    paths: [
      "description",
      "website",
      "investorWebsite",
      "stateOfIncorporationDescription",
      "addresses*",
      "flags",
      "formerNames*",
      "filings.files[]*",
    ],
    reason:
      "registrant details and the older-filings index: the service reads the recent filings only (a year of Form 4s fits in them)",
  },
  {
    files: FORM4S,
    kind: "missing",
    paths: [
      `${FORM4}.reportingOwner[].reportingOwnerAddress[].rptOwnerStreet2*`,
      `${FORM4}.reportingOwner[].reportingOwnerAddress[].rptOwnerStateDescription*`,
      `${FORM4}.reportingOwner[].reportingOwnerRelationship[].otherText*`,
      `${FORM4}.aff10b5One*`,
      `${FORM4}.nonDerivativeTable[].nonDerivativeHolding*`,
    ],
    reason: NOT_READ,
  },
  {
    files: FORM4S,
    kind: "missing",
    paths: [
      `${FORM4}.reportingOwner[].reportingOwnerRelationship[].officerTitle*`,
      `${FORM4}.nonDerivativeTable[].nonDerivativeTransaction[].transactionAmounts[].transactionShares[].footnoteId*`,
      `${FORM4}.nonDerivativeTable[].nonDerivativeTransaction[].transactionAmounts[].transactionPricePerShare[].footnoteId*`,
      `${FORM4}.nonDerivativeTable[].nonDerivativeTransaction[].transactionCoding[].footnoteId*`,
      `${FORM4}.nonDerivativeTable[].nonDerivativeTransaction[].postTransactionAmounts[].sharesOwnedFollowingTransaction[].footnoteId*`,
      `${FORM4}.derivativeTable[].derivativeTransaction*`,
      `${FORM4}.footnotes[].footnote*`,
    ],
    reason:
      "the simulated filing is a director's open-market trade without options or footnotes; the parser's own tests read a filing with all of them (test/fixtures/edgar)",
  },
  {
    files: FORM4S,
    kind: "type",
    paths: [`${FORM4}.derivativeTable[]`, `${FORM4}.footnotes[]`],
    reason: "empty in the simulated filing (an element without children reads as text), full in the recorded ones",
  },
  {
    files: ["sec_edgar/form4-374water-scwo-2025-04-30.json"],
    kind: "extra",
    paths: [
      `${FORM4}.notSubjectToSection16*`,
      `${FORM4}.remarks*`,
      `${FORM4}.reportingOwner[].reportingOwnerRelationship[].isDirector*`,
      `${FORM4}.reportingOwner[].reportingOwnerRelationship[].isTenPercentOwner*`,
      `${FORM4}.reportingOwner[].reportingOwnerRelationship[].isOther*`,
    ],
    reason:
      "filers leave out what does not apply; this recording sends isOfficer alone, others (the other recording) send all four",
  },
  {
    files: ["sec_edgar/form4-snow-scarpelli-2022-12-13.json"],
    kind: "extra",
    paths: ["?xml*"],
    reason:
      "the project that recorded this filing re-wrapped it and dropped the XML declaration; the other recording keeps it",
  },
  {
    files: ["stream_provider/handshake-frame.json"],
    kind: "missing",
    paths: ["[].studies_metadata_hash", "[].via"],
    reason: NOT_READ,
  },
];
