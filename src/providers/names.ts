/**
 * The source identifier of each provider: what `data_source`, `source`, provider errors and the
 * health report say. The one place they are spelled.
 */
export const DELAYED = "delayed_provider";
export const STREAM = "stream_provider";
/** Web pages read for trailing P/E, EPS and dividend yield (spec /fundamental rule 1c). */
export const SCRAPED_BUSINESSINSIDER = "scraped_businessinsider";
export const SCRAPED_ONVISTA = "scraped_onvista";
/** SEC EDGAR (insider transactions, Form 4). */
export const EDGAR = "sec_edgar";

/** The macro provider (FRED): the 10-year Treasury yield, the valuation's risk-free rate. */
export const MACRO = "macro_provider";

/** The price providers (a quote's or a bar's source). */
export type ProviderName = typeof DELAYED | typeof STREAM;
