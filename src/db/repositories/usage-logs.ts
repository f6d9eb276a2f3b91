import type { Db } from "../client";
import { usageLogs } from "../schema";

export type NewUsageLog = typeof usageLogs.$inferInsert;

export async function insertUsageLog(db: Db, row: NewUsageLog): Promise<void> {
  await db.insert(usageLogs).values(row);
}
