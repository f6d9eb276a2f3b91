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

/** `pathOf(i)` gives the i-th request's URL, so a run can hit one URL or a fresh one each time. */
export async function load(opts: {
  pathOf: (i: number) => string;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
}): Promise<LoadResult> {
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
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: round(latencies.length / elapsed, 1),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    body_bytes: bodyBytes,
  };
}
