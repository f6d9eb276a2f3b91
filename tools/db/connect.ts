import { fileURLToPath } from "node:url";
import pg from "pg";

/**
 * A database URL as it may be printed: its password replaced by `***` (messages end up in terminals,
 * CI logs and bug reports). A string that is no Postgres URL is not printed at all.
 */
export function printableUrl(url: string): string {
  const u = URL.parse(url);
  if (!u || !["postgres:", "postgresql:"].includes(u.protocol)) return "(not a Postgres URL)";
  if (u.password) u.password = "***";
  return u.toString();
}

/** Throws a message naming the URL (without its password) when Postgres does not answer within 5 s. */
export async function assertReachable(url: string, setting: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    throw new Error(
      `${setting} is set but Postgres is unreachable (${printableUrl(url)}): ${err instanceof Error ? err.message.replaceAll(url, printableUrl(url)) : err}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs `task` on DATABASE_URL when `moduleUrl` is the script node was started with (the npm db:* scripts). */
export function runAsScript(moduleUrl: string, name: string, task: (url: string) => Promise<string>): void {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set: export it (postgres://user:pass@host:5432/db) and run again.");
    process.exit(2);
  }
  task(url).then(
    (done) => console.log(done),
    (err) => {
      console.error(`${name} failed:`, err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
