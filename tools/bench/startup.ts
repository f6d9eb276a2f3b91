import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { benchHeader, median, roundOrder } from "./load";
import { type Bundle, buildBundle, miniflareOptions } from "./miniflare-worker";

/**
 * `npm run bench:startup`: what a fresh isolate costs before its first answer, the service beside
 * the bare Hono app of tools/bench/bare, in the same runtime (workerd, through Miniflare) and from
 * the bundles `wrangler deploy --dry-run` uploads. Each round starts a new runtime for each (in
 * turns), times it until it is ready (the script compiled, its global scope evaluated and its
 * bindings set up) and until its first answer, then asks once more (a warm answer, for comparison).
 * The bare app is also started with every binding of the service (tools/bench/bare/bound.ts under
 * the service's wrangler.toml): the service's ready time beyond that one is its global scope alone
 * (compiling and evaluating its bundle), apart from the runtime's set-up of the bindings (three
 * Durable Object classes, queues, assets). Prints JSON.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KEY = "bench-startup-key-0123456789abcdef01234567";

interface Target {
  name: "service" | "bare" | "bare_bound";
  /** The configuration the bundle is built from. */
  config: string;
  /** The configuration whose bindings the runtime is started with. */
  bindingsFrom: string;
  /** A request any fresh isolate can answer without a database: the service's indicator catalogue. */
  path: string;
  headers: Record<string, string>;
  vars: Record<string, string>;
}

const TARGETS: Target[] = [
  {
    name: "service",
    config: "wrangler.toml",
    bindingsFrom: "wrangler.toml",
    path: "/technical/list",
    headers: { "X-API-KEY": KEY },
    // No database or cache is reached by the route; the scheduled refresh stays off.
    vars: { SERVICE_API_KEYS: KEY, REFRESH_SCHEDULED: "false" },
  },
  {
    name: "bare",
    config: "tools/bench/bare/wrangler.toml",
    bindingsFrom: "tools/bench/bare/wrangler.toml",
    path: "/floor?bytes=2",
    headers: {},
    vars: {},
  },
  {
    name: "bare_bound",
    config: "tools/bench/bare/wrangler.bound.toml",
    bindingsFrom: "wrangler.toml",
    path: "/floor?bytes=2",
    headers: {},
    vars: { REFRESH_SCHEDULED: "false" },
  },
];

/** The bundle wrangler would upload for a target's config. */
const build = (target: Target, dir: string): Bundle => buildBundle(ROOT, target.config, join(dir, target.name));

/** One fresh runtime: ms until ready, until the first answer, and for a second (warm) answer. */
async function coldStart(target: Target, built: Bundle) {
  const options = miniflareOptions(built, join(ROOT, target.bindingsFrom), target.vars);
  const started = performance.now();
  const mf = new Miniflare(convertV4MiniflareOptions(options));
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
  const built = Object.fromEntries(TARGETS.map((t) => [t.name, build(t, dir)])) as Record<Target["name"], Bundle>;
  const samples: Record<Target["name"], Awaited<ReturnType<typeof coldStart>>[]> = {
    service: [],
    bare: [],
    bare_bound: [],
  };
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
  const bareBound = summary("bare_bound");
  console.log(
    JSON.stringify(
      {
        ...benchHeader("startup"),
        rounds: ROUNDS,
        service,
        bare,
        bare_with_service_bindings: bareBound,
        ready_beyond_bare_ms: Number((service.ready_ms - bare.ready_ms).toFixed(1)),
        // The service's bindings' set-up, and its global scope (the bundle compiled and evaluated).
        bindings_setup_ms: Number((bareBound.ready_ms - bare.ready_ms).toFixed(1)),
        global_scope_ms: Number((service.ready_ms - bareBound.ready_ms).toFixed(1)),
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
