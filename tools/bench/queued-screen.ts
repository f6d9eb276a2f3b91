import type { BenchStack } from "./stack";

/**
 * A screen of a length no snapshot holds, over more bars than an answer reads at once: the first
 * request's answer (202 with the day's run), the seconds until the run finished (polled every
 * 250 ms), then the median of a few answers from the finished run (each a new threshold).
 */
export async function queuedScreen(stack: BenchStack, query: string, answers = 5) {
  const url = (value: string) => `${stack.base}/technical/screen?${query}&operator=lt&value=${value}`;
  const started = performance.now();
  const first = await fetch(url("50"), { headers: stack.headers });
  const body = (await first.json()) as { run?: { id: number; poll: string; shares: number } };
  if (first.status !== 202 || !body.run) throw new Error(`${query}: ${first.status} ${JSON.stringify(body)}`);
  type Run = { status: string; shares: number; instruments: number; skipped: number };
  let run: Run;
  for (;;) {
    const res = await fetch(`${stack.base}${body.run.poll}`, { headers: stack.headers });
    run = (await res.json()) as Run;
    if (run.status === "finished") break;
    if (performance.now() - started > 30 * 60_000) throw new Error(`${query}: the run did not finish in 30 minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const runSeconds = (performance.now() - started) / 1000;
  const times: number[] = [];
  let last: { total?: number; run_id?: number | null } = {};
  for (let i = 0; i < answers; i++) {
    const t = performance.now();
    const res = await fetch(url((40 + i / 1000).toFixed(3)), { headers: stack.headers });
    last = (await res.json()) as typeof last;
    times.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(last)}`);
  }
  times.sort((a, b) => a - b);
  return {
    query,
    shares: run.shares,
    instruments: run.instruments,
    skipped: run.skipped,
    run_seconds: Number(runSeconds.toFixed(1)),
    answer_from_run_p50_ms: Number((times[Math.floor(times.length / 2)] ?? 0).toFixed(1)),
    matches_below_40: last.total,
  };
}
