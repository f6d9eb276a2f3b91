/**
 * Numbers as web pages write them. English pages: "1,234.56", "0.55%"; German pages: "1.234,56",
 * "0,55 %". A dash, "n/a" or an empty cell is no value.
 */
export function parsePageNumber(text: string, locale: "en" | "de"): { value: number | null; percent: boolean } {
  const t = text.replace(/\u00a0/g, " ").trim();
  const percent = /%\s*$/.test(t);
  const body = t.replace(/%\s*$/, "").replace(/\s+/g, "");
  if (body === "" || /^(-|–|—|n\/?a|N\/?A)$/.test(body)) return { value: null, percent };
  const normalised = locale === "en" ? body.replace(/,/g, "") : body.replace(/\./g, "").replace(",", ".");
  if (!/^[+-]?\d+(\.\d+)?$/.test(normalised)) return { value: null, percent };
  return { value: Number(normalised), percent };
}

/** The first ISIN written after the word "ISIN" in a page's text. */
export function isinInText(text: string): string | null {
  const m = /ISIN[:\s]*([A-Z]{2}[A-Z0-9]{9}\d)/.exec(text);
  return m?.[1] ?? null;
}
