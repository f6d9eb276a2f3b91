import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { convertV4MiniflareOptions, Miniflare, type V4MiniflareOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { median, roundOrder } from "./load";

/**
 * `npm run bench:startup`: what a fresh isolate costs before its first answer, the service beside
 * the bare Hono app of tools/bench/bare, in the same runtime (workerd, through Miniflare) and from
 * the bundles `wrangler deploy --dry-run` uploads. Each round starts a new runtime for each (in
 * turns), times it until it is ready (the script compiled, its global scope evaluated and its
 * bindings set up) and until its first answer, then asks once more (a warm answer, for comparison).
 * The service's ready time beyond the bare app's is its global scope plus its bindings' set-up
 * (three Durable Object classes, queues); both include the same runtime start. Prints JSON.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KEY = "bench-startup-key";

interface Target {
  name: "service" | "bare";
  config: string;
  /** A request any fresh isolate can answer without a database: the service's indicator catalogue. */
  path: string;
  headers: Record<string, string>;
  vars: Record<string, string>;
}

const TARGETS: Target[] = [
  {
    name: "service",
    config: "wrangler.toml",
    path: "/technical/list",
    headers: { "X-API-KEY": KEY },
    // No database or cache is reached by the route; the scheduled refresh stays off.
    vars: { SERVICE_API_KEYS: KEY, REFRESH_SCHEDULED: "false" },
  },
  { name: "bare", config: "tools/bench/bare/wrangler.toml", path: "/floor?bytes=2", headers: {}, vars: {} },
];

interface Built {
  script: string;
  uploadKiB: number;
  gzipKiB: number;
}

/** The bundle wrangler would upload for a config, and its size as wrangler reports it. */
function build(target: Target, dir: string): Built {
  const out = join(dir, target.name);
  const run = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out, "-c", target.config], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run -c ${target.config}: ${run.stderr}`);
  const log = `${run.stdout}${run.stderr}`;
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(log);
  const scriptPath = join(out, target.name === "service" ? "index.js" : "worker.js");
  const script = readFileSync(scriptPath, "utf8");
  return {
    script: scriptPath,
    uploadKiB: m ? Number(m[1]) : Number((Buffer.byteLength(script) / 1024).toFixed(2)),
    gzipKiB: m ? Number(m[2]) : Number((gzipSync(script).length / 1024).toFixed(2)),
  };
}

/** One fresh runtime: ms until ready, until the first answer, and for a second (warm) answer. */
async function coldStart(target: Target, built: Built) {
  // The bundle is built already: the config's module rules (for bundling) do not apply.
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(
    join(ROOT, target.config),
  ).workerOptions;
  const started = performance.now();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...workerOptions,
      bindings: { ...(workerOptions.bindings ?? {}), ...target.vars },
      modules: true,
      scriptPath: built.script,
      modulesRoot: dirname(built.script),
    } as V4MiniflareOptions),
  );
  try {
    await mf.ready;
    const ready = performance.now();
    const first = await mf.dispatchFetch(`http://bench.local${target.path}`, { headers: target.headers });
    await first.arrayBuffer();
    const answered = performance.now();
    if (first.status !== 200) throw new Error(`${target.name} ${target.path}: HTTP ${first.status}`);
    const again = await mf.dispatchFetch(`http://bench.local${target.path}`, { headers: target.headers });
    await again.arrayBuffer();
    return {
      ready: ready - started,
      first: answered - started,
      firstAfterReady: answered - ready,
      warm: performance.now() - answered,
    };
  } finally {
    await mf.dispose();
  }
}

const dir = mkdtempSync(join(tmpdir(), "mds-startup-"));
try {
  const built = Object.fromEntries(TARGETS.map((t) => [t.name, build(t, dir)])) as Record<Target["name"], Built>;
  const samples: Record<Target["name"], Awaited<ReturnType<typeof coldStart>>[]> = { service: [], bare: [] };
  await coldStart(TARGETS[1] as Target, built.bare); // the first runtime start of a run warms the disk cache
  for (let r = 0; r < ROUNDS; r++)
    for (const i of roundOrder(r, TARGETS.length)) {
      const t = TARGETS[i] as Target;
      samples[t.name].push(await coldStart(t, built[t.name]));
    }
  const summary = (name: Target["name"]) => {
    const s = samples[name];
    const m = (k: keyof (typeof s)[number]) => Number(median(s.map((x) => x[k])).toFixed(1));
    return {
      upload_kib: built[name].uploadKiB,
      gzip_kib: built[name].gzipKiB,
      ready_ms: m("ready"),
      first_answer_ms: m("first"),
      first_answer_after_ready_ms: m("firstAfterReady"),
      warm_answer_ms: m("warm"),
      rounds: s.map((x) => Number(x.first.toFixed(1))),
    };
  };
  const service = summary("service");
  const bare = summary("bare");
  console.log(
    JSON.stringify(
      {
        bench: "startup",
        at: new Date().toISOString(),
        machine: { node: process.version, cpus: cpus().length },
        rounds: ROUNDS,
        service,
        bare,
        ready_beyond_bare_ms: Number((service.ready_ms - bare.ready_ms).toFixed(1)),
        first_answer_ratio: Number((service.first_answer_ms / bare.first_answer_ms).toFixed(2)),
        within_1_5x: service.first_answer_ms <= 1.5 * bare.first_answer_ms,
        upload_below_450_kib_gzip: service.gzip_kib < 450,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
