/**
 * Pages that cannot be found from the ISIN or the ticker: instrument (ISIN or catalogue ticker) ->
 * the provider's own page id. Looked up first (spec /fundamental rule 4: mapping, then ISIN, then ticker).
 */
export const SCRAPED_PAGE_MAP: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  scraped_businessinsider: {
    // Class B shares are written with a dot on the page's address.
    "BRK-B": "brk.b",
  },
  scraped_onvista: {},
};
