import { cpus } from "node:os";

/** A small closed-loop HTTP load generator: `concurrency` clients send back to back for `durationMs`. */
export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  body_bytes: number;
}

/** The p-th percentile of ascending values. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (x: number, dp = 2) => Number(x.toFixed(dp));

/** What every benchmark's JSON starts with: its name, when it ran, and on what. */
export function benchHeader(bench: string) {
  return { bench, at: new Date().toISOString(), machine: { node: process.version, cpus: cpus().length } };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

interface Sample {
  latencies: number[];
  errors: number;
  seconds: number;
  bodyBytes: number;
}

async function sample(opts: {
  pathOf: (i: number) => string;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
}): Promise<Sample> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  let bodyBytes = 0;
  const started = performance.now();
  const deadline = started + opts.durationMs;
  const client = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await fetch(opts.pathOf(next++), { headers: opts.headers }).catch(() => undefined);
      const body = res ? await res.arrayBuffer().catch(() => undefined) : undefined;
      latencies.push(performance.now() - t0);
      if (res?.status !== 200 || !body) errors += 1;
      else bodyBytes = body.byteLength;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  return { latencies, errors, seconds: (performance.now() - started) / 1000, bodyBytes };
}

function summary(samples: Sample[]): LoadResult {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  return {
    requests: latencies.length,
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    rps: round(latencies.length / seconds, 1),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    body_bytes: samples.reduce((bytes, s) => s.bodyBytes || bytes, 0),
  };
}

/** `pathOf(i)` gives the i-th request's URL, so a run can hit one URL or a fresh one each time. */
export async function load(opts: {
  pathOf: (i: number) => string;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
}): Promise<LoadResult> {
  return summary([await sample(opts)]);
}

export type InterleavedResult = LoadResult & { rounds_rps: number[] };

/**
 * Round r's order of n targets, a Williams square: over n rounds (2n when n is odd) each target
 * comes at each place, and right after each other target, equally often.
 */
export function roundOrder(r: number, n: number): number[] {
  const first = [0];
  for (let lo = 1, hi = n - 1; first.length < n; ) first.push(first.length % 2 ? lo++ : hi--);
  const row = first.map((t) => (t + r) % n);
  return n % 2 === 1 && Math.floor(r / n) % 2 === 1 ? row.reverse() : row;
}

/**
 * Measures several targets in turns: `rounds` rounds, in each of which every target has `roundMs`
 * after `settleMs` of quiet, in the balanced order of `roundOrder`. Whatever else slows the machine
 * for a few seconds (on two cores, the load generator itself, a database's checkpoint, the CPU's
 * clock) then falls on every target alike, where one run of several seconds per target charged it
 * to whichever ran then; the quiet lets the work a target leaves behind (a queue's delayed batch)
 * finish before the next one is measured. Ratios are taken round by round (`rounds_rps`).
 */
export async function interleave<K extends string>(opts: {
  /** Each target's `pathOf(i)`, as in `load`. */
  targets: Record<K, (i: number) => string>;
  headers: Record<string, string>;
  concurrency: number;
  rounds: number;
  roundMs: number;
  settleMs: number;
}): Promise<Record<K, InterleavedResult>> {
  const names = Object.keys(opts.targets) as K[];
  const samples = new Map<K, Sample[]>(names.map((n) => [n, []]));
  let offset = 0;
  for (let r = 0; r < opts.rounds; r++) {
    for (const index of roundOrder(r, names.length)) {
      const name = names[index] as K;
      const target = opts.targets[name];
      await new Promise((resolve) => setTimeout(resolve, opts.settleMs));
      const s = await sample({
        pathOf: (i) => target(offset + i),
        headers: opts.headers,
        concurrency: opts.concurrency,
        durationMs: opts.roundMs,
      });
      offset += s.latencies.length;
      samples.get(name)?.push(s);
    }
  }
  const out = {} as Record<K, InterleavedResult>;
  for (const name of names) {
    const own = samples.get(name) ?? [];
    out[name] = { ...summary(own), rounds_rps: own.map((s) => round(s.latencies.length / s.seconds, 1)) };
  }
  return out;
}
