import { BadRequestError } from "../domain/errors";
import type { DateRange } from "../domain/ingest-plan";

/**
 * The from/to a caller gave: null when neither, a 400 when only one or when they are out of order.
 * @example givenRange("2024-01-02", "2024-03-01") // { from: "2024-01-02", to: "2024-03-01" }
 */
export function givenRange(from: string | undefined, to: string | undefined): DateRange | null {
  if (from === undefined && to === undefined) return null;
  if (from === undefined || to === undefined) throw new BadRequestError("from and to must be given together");
  if (from > to) throw new BadRequestError(`from (${from}) is after to (${to})`);
  return { from, to };
}
