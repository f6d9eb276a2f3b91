import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set: export it (postgres://user:pass@host:5432/db) and run again.");
    process.exit(2);
  }
  migrateDatabase(url).then(
    () => console.log("migrations applied"),
    (err) => {
      console.error("migration failed:", err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
