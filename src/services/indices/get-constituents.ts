import { indexMembersOf, storedIndices } from "../../db/repositories/indices";
import { NoDataError } from "../../domain/errors";
import { indexKey } from "../../domain/indices";
import type { Context } from "../../platform/context";

export interface IndexConstituents {
  index: { code: string; name: string; symbol: string; as_of: string; source: string; member_count: number };
  members: {
    isin: string;
    name: string;
    ticker: string | null;
    exchange: string | null;
    currency: string | null;
    sector: string | null;
    industry: string | null;
    country: string | null;
    /** Ratio; null when the composition's source gives none. */
    weight: number | null;
  }[];
}

/**
 * GET /index/{index_name}/constituents: the stored composition of an index found by its code or
 * any alias (case, spaces and punctuation ignored), heaviest members first, then by name.
 */
export async function getIndexConstituents({
  ctx,
  input,
}: {
  ctx: Context;
  input: { name: string };
}): Promise<IndexConstituents> {
  const db = ctx.db;
  const key = indexKey(input.name);
  const indices = await storedIndices(db);
  const index = indices.find((i) => i.code === key || i.aliases.includes(key));
  if (!index)
    throw new NoDataError(
      `Unknown index ${input.name}`,
      `known indices: ${indices.map((i) => `${i.name} (${i.code})`).join(", ")}`,
    );
  const rows = await indexMembersOf(db, index.code);
  return {
    index: {
      code: index.code,
      name: index.name,
      symbol: index.symbol,
      as_of: index.asOf,
      source: index.source,
      member_count: rows.length,
    },
    members: rows.map((r) => ({ ...r, weight: r.weight === null ? null : Number(r.weight) })),
  };
}
