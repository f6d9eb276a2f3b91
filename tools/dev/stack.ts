import { startRedisBridge } from "../cache/redis-bridge";
import { assertReachable } from "../db/connect";
import { startEmbeddedPostgres } from "../db/embedded-postgres";
import { migrateDatabase } from "../db/migrate";
import { startNeonLocal } from "../db/neon-local";
import { seedCatalogue } from "../db/seed";

/** What the Worker needs to reach the local stack, and how to stop it. */
export interface LocalStack {
  vars: Record<string, string>;
  databaseLabel: string;
  cacheLabel: string;
  stop(): Promise<void>;
}

/**
 * Postgres (DATABASE_URL, else an embedded PGlite kept in `dataDir`), Neon's local endpoints in
 * front of it (SQL over HTTP, the WebSocket proxy), migrations and the seed catalogue, and the Upstash bridge when REDIS_URL is set.
 */
export async function startLocalStack(opts: {
  databaseUrl?: string;
  redisUrl?: string;
  dataDir: string;
}): Promise<LocalStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    let url = opts.databaseUrl;
    let databaseLabel: string;
    if (url) {
      await assertReachable(url, "DATABASE_URL");
      databaseLabel = `Postgres at ${new URL(url).host}`;
    } else {
      const embedded = await startEmbeddedPostgres({ dataDir: opts.dataDir });
      stops.push(embedded.stop);
      url = embedded.url;
      databaseLabel = `embedded PGlite (data in ${opts.dataDir})`;
    }
    await migrateDatabase(url);
    const seeded = await seedCatalogue(url);
    // A listing the seed names for another instrument than the one holding it stays where it is.
    for (const r of seeded.refused) console.warn(`seed: refused ${r.reason}`);
    databaseLabel += `, ${seeded.assets} instruments`;
    const target = new URL(url);
    const neon = await startNeonLocal({ host: target.hostname, port: Number(target.port || 5432) });
    stops.push(neon.close);
    const vars: Record<string, string> = { DATABASE_URL: url, ...neon.vars };

    let cacheLabel = "in-isolate LRU (set REDIS_URL or UPSTASH_REDIS_REST_URL/TOKEN for Redis)";
    if (opts.redisUrl) {
      const bridge = await startRedisBridge({ redisUrl: opts.redisUrl, token: `dev-${Date.now()}` });
      stops.push(bridge.close);
      vars.UPSTASH_REDIS_REST_URL = bridge.url;
      vars.UPSTASH_REDIS_REST_TOKEN = bridge.token;
      cacheLabel = `Redis at ${new URL(opts.redisUrl).host} through the Upstash REST bridge`;
    }
    return { vars, databaseLabel, cacheLabel, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
