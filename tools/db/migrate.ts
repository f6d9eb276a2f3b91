import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { runAsScript } from "./connect";

const MIGRATIONS = fileURLToPath(new URL("../../migrations", import.meta.url));

/** Applies every migration under migrations/ that the database has not seen (drizzle's journal). */
export async function migrateDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Migrations print NOTICEs ("schema already exists"); they are expected.
    client.on("notice", () => undefined);
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
  } finally {
    await client.end();
  }
}

runAsScript(import.meta.url, "migration", async (url) => {
  await migrateDatabase(url);
  return "migrations applied";
});
