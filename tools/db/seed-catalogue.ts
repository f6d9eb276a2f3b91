/**
 * The seed catalogue: real instruments with their real ISINs (check digits verified by a test),
 * sector and industry, and their listings. Exchange codes are the catalogue's own: NASDAQ, NYSE,
 * NYSEARCA, PAR (Euronext Paris), AMS (Euronext Amsterdam), XETRA, MIL (Borsa Italiana), LSE.
 */
import { venueOf } from "../../src/domain/venues";

export interface SeedListing {
  ticker: string;
  exchange: string;
  currency: string;
  primary: boolean;
}

export interface SeedInstrument {
  isin: string;
  name: string;
  quoteType: "EQUITY" | "ETF";
  sector: string | null;
  industry: string | null;
  country: string;
  listings: SeedListing[];
}

type Row = [
  isin: string,
  name: string,
  sector: string,
  industry: string,
  country: string,
  ticker: string,
  exchange: string,
  currency: string,
];

/** Shares with a single listing. */
const SINGLE: Row[] = [
  // United States, NASDAQ
  ["US0378331005", "Apple Inc.", "Technology", "Consumer Electronics", "US", "AAPL", "NASDAQ", "USD"],
  ["US5949181045", "Microsoft Corporation", "Technology", "Software - Infrastructure", "US", "MSFT", "NASDAQ", "USD"],
  ["US0231351067", "Amazon.com, Inc.", "Consumer Cyclical", "Internet Retail", "US", "AMZN", "NASDAQ", "USD"],
  [
    "US02079K3059",
    "Alphabet Inc. Class A",
    "Communication Services",
    "Internet Content & Information",
    "US",
    "GOOGL",
    "NASDAQ",
    "USD",
  ],
  [
    "US02079K1079",
    "Alphabet Inc. Class C",
    "Communication Services",
    "Internet Content & Information",
    "US",
    "GOOG",
    "NASDAQ",
    "USD",
  ],
  [
    "US30303M1027",
    "Meta Platforms, Inc.",
    "Communication Services",
    "Internet Content & Information",
    "US",
    "META",
    "NASDAQ",
    "USD",
  ],
  ["US67066G1040", "NVIDIA Corporation", "Technology", "Semiconductors", "US", "NVDA", "NASDAQ", "USD"],
  ["US88160R1014", "Tesla, Inc.", "Consumer Cyclical", "Auto Manufacturers", "US", "TSLA", "NASDAQ", "USD"],
  ["US64110L1061", "Netflix, Inc.", "Communication Services", "Entertainment", "US", "NFLX", "NASDAQ", "USD"],
  ["US4581401001", "Intel Corporation", "Technology", "Semiconductors", "US", "INTC", "NASDAQ", "USD"],
  ["US17275R1023", "Cisco Systems, Inc.", "Technology", "Communication Equipment", "US", "CSCO", "NASDAQ", "USD"],
  ["US7134481081", "PepsiCo, Inc.", "Consumer Defensive", "Beverages - Non-Alcoholic", "US", "PEP", "NASDAQ", "USD"],
  ["US00724F1012", "Adobe Inc.", "Technology", "Software - Application", "US", "ADBE", "NASDAQ", "USD"],
  [
    "US22160K1051",
    "Costco Wholesale Corporation",
    "Consumer Defensive",
    "Discount Stores",
    "US",
    "COST",
    "NASDAQ",
    "USD",
  ],
  ["US0079031078", "Advanced Micro Devices, Inc.", "Technology", "Semiconductors", "US", "AMD", "NASDAQ", "USD"],
  ["US7475251036", "QUALCOMM Incorporated", "Technology", "Semiconductors", "US", "QCOM", "NASDAQ", "USD"],
  ["US11135F1012", "Broadcom Inc.", "Technology", "Semiconductors", "US", "AVGO", "NASDAQ", "USD"],
  // United States, NYSE
  ["US46625H1005", "JPMorgan Chase & Co.", "Financial Services", "Banks - Diversified", "US", "JPM", "NYSE", "USD"],
  [
    "US1912161007",
    "The Coca-Cola Company",
    "Consumer Defensive",
    "Beverages - Non-Alcoholic",
    "US",
    "KO",
    "NYSE",
    "USD",
  ],
  ["US4781601046", "Johnson & Johnson", "Healthcare", "Drug Manufacturers - General", "US", "JNJ", "NYSE", "USD"],
  [
    "US7427181091",
    "The Procter & Gamble Company",
    "Consumer Defensive",
    "Household & Personal Products",
    "US",
    "PG",
    "NYSE",
    "USD",
  ],
  ["US30231G1022", "Exxon Mobil Corporation", "Energy", "Oil & Gas Integrated", "US", "XOM", "NYSE", "USD"],
  ["US92826C8394", "Visa Inc.", "Financial Services", "Credit Services", "US", "V", "NYSE", "USD"],
  [
    "US0846707026",
    "Berkshire Hathaway Inc. Class B",
    "Financial Services",
    "Insurance - Diversified",
    "US",
    "BRK-B",
    "NYSE",
    "USD",
  ],
  ["US5801351017", "McDonald's Corporation", "Consumer Cyclical", "Restaurants", "US", "MCD", "NYSE", "USD"],
  ["US2546871060", "The Walt Disney Company", "Communication Services", "Entertainment", "US", "DIS", "NYSE", "USD"],
  [
    "US4592001014",
    "International Business Machines Corporation",
    "Technology",
    "Information Technology Services",
    "US",
    "IBM",
    "NYSE",
    "USD",
  ],
  ["US1667641005", "Chevron Corporation", "Energy", "Oil & Gas Integrated", "US", "CVX", "NYSE", "USD"],
  ["US7170811035", "Pfizer Inc.", "Healthcare", "Drug Manufacturers - General", "US", "PFE", "NYSE", "USD"],
  ["US4370761029", "The Home Depot, Inc.", "Consumer Cyclical", "Home Improvement Retail", "US", "HD", "NYSE", "USD"],
  ["US6541061031", "NIKE, Inc.", "Consumer Cyclical", "Footwear & Accessories", "US", "NKE", "NYSE", "USD"],
  ["US38141G1040", "The Goldman Sachs Group, Inc.", "Financial Services", "Capital Markets", "US", "GS", "NYSE", "USD"],
  [
    "US1491231015",
    "Caterpillar Inc.",
    "Industrials",
    "Farm & Heavy Construction Machinery",
    "US",
    "CAT",
    "NYSE",
    "USD",
  ],
  [
    "US8030542042",
    "SAP SE (American Depositary Shares)",
    "Technology",
    "Software - Application",
    "DE",
    "SAP",
    "NYSE",
    "USD",
  ],
  // Euronext Paris
  [
    "FR0000121014",
    "LVMH Moët Hennessy Louis Vuitton SE",
    "Consumer Cyclical",
    "Luxury Goods",
    "FR",
    "MC.PA",
    "PAR",
    "EUR",
  ],
  ["FR0000120271", "TotalEnergies SE", "Energy", "Oil & Gas Integrated", "FR", "TTE.PA", "PAR", "EUR"],
  ["FR0000120321", "L'Oréal S.A.", "Consumer Defensive", "Household & Personal Products", "FR", "OR.PA", "PAR", "EUR"],
  ["FR0000120578", "Sanofi", "Healthcare", "Drug Manufacturers - General", "FR", "SAN.PA", "PAR", "EUR"],
  ["NL0000235190", "Airbus SE", "Industrials", "Aerospace & Defense", "NL", "AIR.PA", "PAR", "EUR"],
  ["FR0000131104", "BNP Paribas SA", "Financial Services", "Banks - Regional", "FR", "BNP.PA", "PAR", "EUR"],
  ["FR0000120628", "AXA SA", "Financial Services", "Insurance - Diversified", "FR", "CS.PA", "PAR", "EUR"],
  [
    "FR0000121972",
    "Schneider Electric SE",
    "Industrials",
    "Specialty Industrial Machinery",
    "FR",
    "SU.PA",
    "PAR",
    "EUR",
  ],
  ["FR0000120073", "L'Air Liquide S.A.", "Basic Materials", "Specialty Chemicals", "FR", "AI.PA", "PAR", "EUR"],
  ["FR0000120644", "Danone S.A.", "Consumer Defensive", "Packaged Foods", "FR", "BN.PA", "PAR", "EUR"],
  ["FR0000121485", "Kering SA", "Consumer Cyclical", "Luxury Goods", "FR", "KER.PA", "PAR", "EUR"],
  ["FR0000052292", "Hermès International", "Consumer Cyclical", "Luxury Goods", "FR", "RMS.PA", "PAR", "EUR"],
  ["FR0000125486", "Vinci SA", "Industrials", "Engineering & Construction", "FR", "DG.PA", "PAR", "EUR"],
  ["FR0000073272", "Safran SA", "Industrials", "Aerospace & Defense", "FR", "SAF.PA", "PAR", "EUR"],
  ["FR0000121667", "EssilorLuxottica", "Healthcare", "Medical Instruments & Supplies", "FR", "EL.PA", "PAR", "EUR"],
  // Xetra
  ["DE0007164600", "SAP SE", "Technology", "Software - Application", "DE", "SAP.DE", "XETRA", "EUR"],
  [
    "DE0007236101",
    "Siemens Aktiengesellschaft",
    "Industrials",
    "Specialty Industrial Machinery",
    "DE",
    "SIE.DE",
    "XETRA",
    "EUR",
  ],
  ["DE0008404005", "Allianz SE", "Financial Services", "Insurance - Diversified", "DE", "ALV.DE", "XETRA", "EUR"],
  ["DE000BASF111", "BASF SE", "Basic Materials", "Chemicals", "DE", "BAS.DE", "XETRA", "EUR"],
  [
    "DE000BAY0017",
    "Bayer Aktiengesellschaft",
    "Healthcare",
    "Drug Manufacturers - General",
    "DE",
    "BAYN.DE",
    "XETRA",
    "EUR",
  ],
  ["DE0005557508", "Deutsche Telekom AG", "Communication Services", "Telecom Services", "DE", "DTE.DE", "XETRA", "EUR"],
  [
    "DE0005190003",
    "Bayerische Motoren Werke Aktiengesellschaft",
    "Consumer Cyclical",
    "Auto Manufacturers",
    "DE",
    "BMW.DE",
    "XETRA",
    "EUR",
  ],
  ["DE0007100000", "Mercedes-Benz Group AG", "Consumer Cyclical", "Auto Manufacturers", "DE", "MBG.DE", "XETRA", "EUR"],
  [
    "DE0007664039",
    "Volkswagen AG (preferred shares)",
    "Consumer Cyclical",
    "Auto Manufacturers",
    "DE",
    "VOW3.DE",
    "XETRA",
    "EUR",
  ],
  ["DE000A1EWWW0", "adidas AG", "Consumer Cyclical", "Footwear & Accessories", "DE", "ADS.DE", "XETRA", "EUR"],
  [
    "DE0005140008",
    "Deutsche Bank Aktiengesellschaft",
    "Financial Services",
    "Banks - Regional",
    "DE",
    "DBK.DE",
    "XETRA",
    "EUR",
  ],
  [
    "DE0008430026",
    "Münchener Rückversicherungs-Gesellschaft AG",
    "Financial Services",
    "Insurance - Reinsurance",
    "DE",
    "MUV2.DE",
    "XETRA",
    "EUR",
  ],
  ["DE0006231004", "Infineon Technologies AG", "Technology", "Semiconductors", "DE", "IFX.DE", "XETRA", "EUR"],
  ["DE0005552004", "DHL Group", "Industrials", "Integrated Freight & Logistics", "DE", "DHL.DE", "XETRA", "EUR"],
  // Euronext Amsterdam
  [
    "NL0010273215",
    "ASML Holding N.V.",
    "Technology",
    "Semiconductor Equipment & Materials",
    "NL",
    "ASML.AS",
    "AMS",
    "EUR",
  ],
  ["NL0012969182", "Adyen N.V.", "Technology", "Information Technology Services", "NL", "ADYEN.AS", "AMS", "EUR"],
  ["NL0000009165", "Heineken N.V.", "Consumer Defensive", "Beverages - Brewers", "NL", "HEIA.AS", "AMS", "EUR"],
  ["NL0000009538", "Koninklijke Philips N.V.", "Healthcare", "Medical Devices", "NL", "PHIA.AS", "AMS", "EUR"],
  ["NL0011821202", "ING Groep N.V.", "Financial Services", "Banks - Diversified", "NL", "INGA.AS", "AMS", "EUR"],
  // Borsa Italiana (Milan)
  ["IT0003132476", "Eni S.p.A.", "Energy", "Oil & Gas Integrated", "IT", "ENI.MI", "MIL", "EUR"],
  ["IT0000072618", "Intesa Sanpaolo S.p.A.", "Financial Services", "Banks - Regional", "IT", "ISP.MI", "MIL", "EUR"],
  ["IT0005239360", "UniCredit S.p.A.", "Financial Services", "Banks - Regional", "IT", "UCG.MI", "MIL", "EUR"],
  ["IT0003128367", "Enel S.p.A.", "Utilities", "Utilities - Diversified", "IT", "ENEL.MI", "MIL", "EUR"],
];

/** Single-listing ETFs (sector and industry do not apply to a fund). */
const ETFS: [isin: string, name: string, country: string, ticker: string, exchange: string][] = [
  ["US78462F1030", "SPDR S&P 500 ETF Trust", "US", "SPY", "NYSEARCA"],
  ["US46090E1038", "Invesco QQQ Trust, Series 1", "US", "QQQ", "NASDAQ"],
  ["US4642872000", "iShares Core S&P 500 ETF", "US", "IVV", "NYSEARCA"],
  ["US9229083632", "Vanguard S&P 500 ETF", "US", "VOO", "NYSEARCA"],
  ["LU1681043599", "Amundi MSCI World UCITS ETF", "LU", "CW8.PA", "PAR"],
];

/** Instruments listed in several places: two currencies, and a ticker ("RACE") borne by two listings. */
const MULTI: SeedInstrument[] = [
  {
    isin: "NL0011585146",
    name: "Ferrari N.V.",
    quoteType: "EQUITY",
    sector: "Consumer Cyclical",
    industry: "Auto Manufacturers",
    country: "NL",
    listings: [
      // Ferrari trades as RACE both in Milan (EUR, home market) and on the NYSE (USD), under one ISIN.
      { ticker: "RACE", exchange: "MIL", currency: "EUR", primary: true },
      { ticker: "RACE", exchange: "NYSE", currency: "USD", primary: false },
      { ticker: "RACE.MI", exchange: "MIL", currency: "EUR", primary: false },
    ],
  },
  {
    isin: "IE00B5BMR087",
    name: "iShares Core S&P 500 UCITS ETF (Acc)",
    quoteType: "ETF",
    sector: null,
    industry: null,
    country: "IE",
    listings: [
      { ticker: "CSPX.L", exchange: "LSE", currency: "USD", primary: true },
      { ticker: "SXR8.DE", exchange: "XETRA", currency: "EUR", primary: false },
    ],
  },
  {
    isin: "IE00B4L5Y983",
    name: "iShares Core MSCI World UCITS ETF (Acc)",
    quoteType: "ETF",
    sector: null,
    industry: null,
    country: "IE",
    listings: [
      { ticker: "SWDA.L", exchange: "LSE", currency: "GBP", primary: true },
      { ticker: "IWDA.AS", exchange: "AMS", currency: "EUR", primary: false },
      { ticker: "EUNL.DE", exchange: "XETRA", currency: "EUR", primary: false },
    ],
  },
];

export const SEED_CATALOGUE: readonly SeedInstrument[] = [
  ...SINGLE.map(([isin, name, sector, industry, country, ticker, exchange, currency]) => ({
    isin,
    name,
    quoteType: "EQUITY" as const,
    sector,
    industry,
    country,
    listings: [{ ticker, exchange, currency, primary: true }],
  })),
  ...ETFS.map(([isin, name, country, ticker, exchange]) => ({
    isin,
    name,
    quoteType: "ETF" as const,
    sector: null,
    industry: null,
    country,
    listings: [{ ticker, exchange, currency: venueOf(exchange).currency, primary: true }],
  })),
  ...MULTI,
];
