import { isoDay } from "../instants";

export type Json = Record<string, unknown>;

/**
 * What one provider answered this request. `failed`: it could not answer (a transport or provider
 * failure, which a retry may cure); an answer the service refuses (a page about another ISIN) is
 * not a failure.
 */
export type Outcome =
  | { status: "ok"; answer: unknown; entry: Json; failed?: false }
  | { status: "error" | "not_queried" | "not_applicable"; entry: Json; failed?: boolean };

/** The label of figures stored on a day. */
export const databaseLabel = (day: string) => `database (${day})`;

/** The label of stored rows: their newest fetch day. */
export function newestDay(dates: readonly Date[]): string | null {
  if (dates.length === 0) return null;
  const newest = Math.max(...dates.map((d) => d.getTime()));
  return databaseLabel(isoDay(new Date(newest)));
}
