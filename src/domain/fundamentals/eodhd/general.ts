import type { FigureTable, Section, Sourced, Sources } from "./place";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export interface GeneralInput {
  code: string;
  type: "Common Stock" | "ETF";
  exchange: string | null;
  currency: string;
  isin: string;
  countryIso: string | null;
  /** Catalogue fallbacks for the name, sector and industry. */
  catalogue: { name: string; sector: string | null; industry: string | null };
  /** Profile figures (name, description, address, ...) with their labels. */
  profile: FigureTable;
  updatedAt: string;
}

/** The label of figures the catalogue itself holds (the instrument's identity). */
export const CATALOGUE = "catalogue";

export function renderGeneral(g: GeneralInput, sources: Sources): Section {
  const labels: Record<string, string> = {};
  const from = (key: string, field: string, fallback: string | null = null) => {
    const f = g.profile.get(field);
    if (f) {
      labels[key] = f.label;
      return f.value;
    }
    if (fallback !== null) labels[key] = CATALOGUE;
    return fallback;
  };
  const identity = (key: string, value: string | null) => {
    if (value !== null) labels[key] = CATALOGUE;
    return value;
  };
  const address = ["address", "city", "zip", "country"]
    .map((k) => g.profile.get(k))
    .filter((f): f is Sourced => f !== undefined);
  const fyEnd = g.profile.get("last_fiscal_year_end");
  const section: Section = {
    Code: identity("Code", g.code),
    Type: identity("Type", g.type),
    Name: from("Name", "name", g.catalogue.name),
    Exchange: identity("Exchange", g.exchange),
    CurrencyCode: identity("CurrencyCode", g.currency),
    CountryName: from("CountryName", "country"),
    CountryISO: identity("CountryISO", g.countryIso),
    ISIN: identity("ISIN", g.isin),
    Sector: from("Sector", "sector", g.catalogue.sector),
    Industry: from("Industry", "industry", g.catalogue.industry),
    Description: from("Description", "description"),
    Address: address.length ? address.map((a) => a.value).join(", ") : null,
    WebURL: from("WebURL", "website"),
    Phone: from("Phone", "phone"),
    FullTimeEmployees: from("FullTimeEmployees", "employees"),
    FiscalYearEnd: typeof fyEnd?.value === "string" ? (MONTHS[Number(fyEnd.value.slice(5, 7)) - 1] ?? null) : null,
    UpdatedAt: g.updatedAt,
  };
  if (address[0]) labels.Address = address[0].label;
  if (fyEnd && section.FiscalYearEnd) labels.FiscalYearEnd = fyEnd.label;
  sources.General = labels;
  return section;
}
