import Decimal from "decimal.js";
import type { Section, Sources } from "./place";

export interface InstitutionInput {
  name: string;
  date: string | null;
  /** Ratios, as the delayed provider sends them. */
  pctHeld: number | null;
  position: number | null;
  pctChange: number | null;
}

/** Holders: EODHD's pseudo-arrays keyed "0".."n"; totalShares and change_p in percent. */
export function renderHolders(
  holders: { institutions: readonly InstitutionInput[]; funds: readonly InstitutionInput[] },
  label: string | null,
  sources: Sources,
): Section {
  const pct = (x: number | null) => (x === null ? null : new Decimal(x).times(100).toNumber());
  const rowsOf = (list: readonly InstitutionInput[]) =>
    Object.fromEntries(
      list.map((h, i) => [
        String(i),
        {
          name: h.name,
          date: h.date,
          totalShares: pct(h.pctHeld),
          totalAssets: null,
          currentShares: h.position,
          change: null,
          change_p: pct(h.pctChange),
        },
      ]),
    );
  const labels: Record<string, string> = {};
  if (label && holders.institutions.length) labels.Institutions = label;
  if (label && holders.funds.length) labels.Funds = label;
  if (Object.keys(labels).length) sources.Holders = labels;
  return { Institutions: rowsOf(holders.institutions), Funds: rowsOf(holders.funds) };
}
