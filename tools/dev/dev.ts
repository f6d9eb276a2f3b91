import { fileURLToPath } from "node:url";
import { readDevVars, resolveDevKeys } from "./keys";
import { type Sandbox, startSandbox } from "./sandbox";
import { startLocalStack } from "./stack";
import { killGroup, startWrangler, waitForHttp } from "./wrangler";

/**
 * `npm run dev`: the whole service on this machine. Postgres is DATABASE_URL or an embedded PGlite
 * under .data/, fronted by the Neon WebSocket proxy; migrations and the seed catalogue are applied;
 * then `wrangler dev`. `npm run dev:sandbox` (`--sandbox`) also starts the provider simulators and
 * points the Worker at them, so everything works offline; its embedded data lives apart
 * (.data/pglite-sandbox) so simulated prices never mix with real ones. Ctrl-C stops every process it started.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PORT = Number(process.env.PORT ?? 8787);
const SANDBOX = process.argv.includes("--sandbox");

async function main(): Promise<void> {
  const devVars = readDevVars(`${ROOT}/.dev.vars`);
  const dataRoot = process.env.DEV_DATA_DIR || `${ROOT}/.data`;
  const keys = resolveDevKeys(process.env, devVars, `${dataRoot}/dev-keys.json`);
  const stack = await startLocalStack({
    databaseUrl: process.env.DATABASE_URL || devVars.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    dataDir: `${dataRoot}/${SANDBOX ? "pglite-sandbox" : "pglite"}`,
  });
  const sandbox: Sandbox | undefined = SANDBOX ? await startSandbox() : undefined;

  const vars: Record<string, string> = {
    ...stack.vars,
    SERVICE_API_KEYS: keys.full,
    SERVICE_READ_ONLY_API_KEYS: keys.readOnly,
    ...(process.env.UPSTASH_REDIS_REST_URL && process.env.UPSTASH_REDIS_REST_TOKEN
      ? {
          UPSTASH_REDIS_REST_URL: process.env.UPSTASH_REDIS_REST_URL,
          UPSTASH_REDIS_REST_TOKEN: process.env.UPSTASH_REDIS_REST_TOKEN,
        }
      : {}),
    ...extraVars(),
    ...(sandbox?.vars ?? {}),
  };
  // The Workers runtime's local state (streams, queues) lives beside the database it goes with.
  const child = startWrangler({
    root: ROOT,
    port: PORT,
    vars,
    stateDir: `${dataRoot}/${SANDBOX ? "wrangler-state-sandbox" : "wrangler-state"}`,
  });

  console.log(
    [
      "",
      `market-data-service on http://127.0.0.1:${PORT}  (docs: http://127.0.0.1:${PORT}/docs)`,
      `  database: ${stack.databaseLabel}`,
      `  cache:    ${stack.cacheLabel}`,
      `  providers: ${sandbox ? sandbox.label : "the real ones (npm run dev:sandbox for the offline simulators)"}`,
      `  full-access key: ${keys.full}${keys.generated ? "  (generated; kept in the data folder)" : ""}`,
      `  read-only key:   ${keys.readOnly || "(none)"}`,
      `  try: curl -H 'X-API-KEY: ${keys.full}' http://127.0.0.1:${PORT}/assets/by-isin/US0378331005`,
      "",
    ].join("\n"),
  );

  if (sandbox) void startFirstRefresh(`http://127.0.0.1:${PORT}`, keys.full);

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    killGroup(child);
    await sandbox?.stop();
    await stack.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  child.on("exit", (code) => void shutdown(code ?? 0));
}

/**
 * Runs the Cron Trigger of every five minutes once the Worker answers, as Cloudflare would within
 * five minutes of a deploy (wrangler dev runs triggers only when asked, at /cdn-cgi/local/scheduled):
 * on a new stack it starts the first refresh of the whole catalogue in the background.
 */
async function startFirstRefresh(base: string, key: string): Promise<void> {
  try {
    await waitForHttp(`${base}/health`, 120_000);
    await fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    const runs = (await (
      await fetch(`${base}/catalogue/refresh?limit=1`, { headers: { "X-API-KEY": key } })
    ).json()) as {
      runs?: { id: number; status: string; listings: { queued: number } }[];
    };
    const run = runs.runs?.[0];
    if (run?.status === "running")
      console.log(
        `dev: refreshing the catalogue in the background (run ${run.id}, ${run.listings.queued} listings); GET /catalogue/refresh shows its progress`,
      );
  } catch (err) {
    console.warn("dev: the first refresh of the catalogue was not started:", err instanceof Error ? err.message : err);
  }
}

/** Provider base URLs and other settings given in the environment reach the Worker too. */
function extraVars(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v &&
      /^(DELAYED_PROVIDER_|STREAM_PROVIDER_|MACRO_|MCP_|NEWS_|SEC_|TECHNICAL_|DCF_|ALERT_|USAGE_LOG_|WORKSPACE_|STOCKS_|FINNHUB_|MARKETAUX_|NEWSAPI_|ALPHAVANTAGE_|REFRESH_)/.test(
        k,
      )
    )
      out[k] = v;
  }
  return out;
}

main().catch((err) => {
  console.error("dev: could not start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
