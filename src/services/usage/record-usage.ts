import { insertUsageLog } from "../../db/repositories/usage-logs";
import type { Deps } from "../../deps";

export interface UsageEntry {
  method: string;
  route: string;
  ticker: string | null;
  keyKind: "full" | "read_only" | "none";
  status: number;
  latencyMs: number;
  /** When the request came, on the service's clock (retention and the 24-hour counts read this clock too). */
  createdAt: Date;
}

/** Writes one usage row; a failure is logged and dropped (usage logging never fails a request). */
export async function recordUsage({ ctx, input }: { ctx: Deps; input: UsageEntry }): Promise<void> {
  if (!ctx.db.configured) return;
  try {
    await insertUsageLog(ctx.db.db, input);
  } catch (err) {
    console.warn("usage log not written", input.route, String(err));
  }
}
