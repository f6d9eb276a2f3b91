import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

/**
 * Runs statements known in advance as one transaction in one round trip (Neon's non-interactive
 * transaction over HTTP): all apply or none. Answers each statement's result in order; none for none.
 */
export async function inOneTransaction(db: Db, statements: readonly BatchItem<"pg">[]): Promise<unknown[]> {
  const [first, ...rest] = statements;
  if (!first) return [];
  return db.batch([first, ...rest]);
}

/** The rows a batched write changed (Postgres's command count). */
export function changedRows(result: unknown): number {
  return (result as { rowCount?: number | null }).rowCount ?? 0;
}

/**
 * A Postgres array literal of numbers or dates (no element needs quoting): one parameter for a
 * whole column, for `unnest(...)` or `= ANY(...)`.
 */
export const arrayLiteral = (values: readonly (number | string)[]) => `{${values.join(",")}}`;
