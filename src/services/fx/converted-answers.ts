/**
 * Converted answers in the cache: their key's variant starts `FX-<currency>`, apart from every
 * unconverted one; one whose bar waits for its day's rate (the ECB late or failing) says so in a
 * header and is never cached (the next request, once the rate is stored, is built at it).
 */
export const convertedVariant = (currency: string) => `FX-${currency.toUpperCase()}`;

/** The header a converted answer carries while a bar's own rate may still come. */
export const FX_PROVISIONAL_HEADER = "x-fx-provisional";
