import { type FamilyUsage, usageByFamily } from "../../db/repositories/usage-logs";
import { BadRequestError, ServiceError } from "../../domain/errors";
import { addDays, isoDay } from "../../domain/instants";
import type { Context } from "../../platform/context";

/** The longest span one usage request reads: the usage log's default retention. */
export const MAX_USAGE_DAYS = 92;
/** The span when none is asked: the last seven days, today included. */
const DEFAULT_DAYS = 7;

export interface KeyUsage {
  keyId: string;
  from: string;
  to: string;
  totals: Omit<FamilyUsage, "family" | "meanMs" | "p50Ms" | "p95Ms">;
  families: FamilyUsage[];
}

/**
 * GET /usage: a key's requests from `from` to `to` (days, both included, UTC) by route family. A key
 * reads its own; another key's needs an admin key (a full-access key of the settings), 403 otherwise.
 */
export async function getKeyUsage(
  ctx: Pick<Context, "db" | "clock" | "caller">,
  input: { key?: string; from?: string; to?: string },
): Promise<KeyUsage> {
  const caller = ctx.caller;
  if (!caller) throw new ServiceError("UNAUTHORIZED", "An API key is required");
  const keyId = input.key ?? caller.keyId;
  if (keyId !== caller.keyId && !caller.admin)
    throw new ServiceError("FORBIDDEN", "A key reads its own usage; another key's needs an admin key");
  const today = isoDay(ctx.clock.now());
  if (input.to && input.to > today)
    throw new BadRequestError(`to is after today (${today})`, [{ path: "to", message: `on or before ${today}` }]);
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days < 1) throw new BadRequestError("from is after to", [{ path: "from", message: "on or before to" }]);
  if (days > MAX_USAGE_DAYS)
    throw new BadRequestError(`at most ${MAX_USAGE_DAYS} days at once`, [
      { path: "from", message: `within ${MAX_USAGE_DAYS} days of to` },
    ]);
  const families = await usageByFamily(
    ctx.db,
    keyId,
    new Date(`${from}T00:00:00Z`),
    new Date(`${addDays(to, 1)}T00:00:00Z`),
  );
  const totals = families.reduce(
    (t, f) => ({
      requests: t.requests + f.requests,
      errors: t.errors + f.errors,
      serverErrors: t.serverErrors + f.serverErrors,
    }),
    { requests: 0, errors: 0, serverErrors: 0 },
  );
  return { keyId, from, to, totals, families };
}
