/**
 * The risk-free rate of each currency: a long-term (10-year) government bond yield from the macro
 * provider. The US dollar's is the Treasury's constant-maturity yield, daily (DGS10); the others are
 * the OECD's monthly long-term yields FRED republishes (IRLTLT01<country>M156N, percent, dated the
 * first of the month, about a month behind). The euro's is Germany's Bund, the euro area's usual
 * risk-free benchmark.
 */
export interface YieldSeries {
  currency: string;
  id: string;
  label: string;
  frequency: "daily" | "monthly";
  unit: "percent";
}

const oecd = (currency: string, country: string, name: string): YieldSeries => ({
  currency,
  id: `IRLTLT01${country}M156N`,
  label: `Long-Term Government Bond Yields: 10-Year: Main (Including Benchmark) for ${name}`,
  frequency: "monthly",
  unit: "percent",
});

export const US_TREASURY_10Y: YieldSeries = {
  currency: "USD",
  id: "DGS10",
  label: "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity",
  frequency: "daily",
  unit: "percent",
};

export const YIELD_SERIES: readonly YieldSeries[] = [
  US_TREASURY_10Y,
  oecd("EUR", "DE", "Germany"),
  oecd("GBP", "GB", "United Kingdom"),
  oecd("JPY", "JP", "Japan"),
  oecd("CHF", "CH", "Switzerland"),
  oecd("CAD", "CA", "Canada"),
  oecd("AUD", "AU", "Australia"),
  oecd("NZD", "NZ", "New Zealand"),
  oecd("SEK", "SE", "Sweden"),
  oecd("DKK", "DK", "Denmark"),
  oecd("NOK", "NO", "Norway"),
  oecd("CZK", "CZ", "Czechia"),
  oecd("HUF", "HU", "Hungary"),
  oecd("PLN", "PL", "Poland"),
  oecd("ILS", "IL", "Israel"),
  oecd("KRW", "KR", "Korea"),
  oecd("MXN", "MX", "Mexico"),
  oecd("ZAR", "ZA", "South Africa"),
];

const BY_CURRENCY = new Map(YIELD_SERIES.map((s) => [s.currency, s]));

/** The yield series of a currency (upper case), or undefined when the macro provider has none for it. */
export const yieldSeriesOf = (currency: string): YieldSeries | undefined => BY_CURRENCY.get(currency);
