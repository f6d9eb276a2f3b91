import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * `npm test`: the suite as four vitest runs at once (lanes): the API tests, the provider nets, the
 * request nets, and the unit tests. Each lane but the unit tests' starts a stack of its own
 * (test/helpers/global-setup.ts, numbered by TEST_LANE). Processes, not projects of one run: one
 * vitest run holds one group of projects at a time, and most of a lane's time is one request
 * waiting on another process (its database, its runtime, a simulator's delay), so lanes side by
 * side keep the machine's two cores busy. (Five lanes, the API tests halved with `--shard`, were
 * no faster here, 142 s against 141 s, and the busier machine let a provider's 1.5 s test
 * deadline pass.) Each line is printed behind its lane's name. The exit code is 1 when a lane
 * failed (its exit code, a signal, or no count of tests printed); a signal to this process reaches
 * every lane. Arguments (`npm test -- <files or flags>`) run one vitest over every project instead
 * (on TEST_DATABASE_URL itself, as `npx vitest run` does).
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));

const LANES = [
  { name: "api", args: ["--project", "worker", "--project", "worker-fresh", "--project", "node"] },
  { name: "provider-nets", args: ["--project", "hardening", "test/hardening/provider-nets.test.ts"] },
  { name: "request-nets", args: ["--project", "hardening", "test/hardening/request-nets.test.ts"] },
  { name: "unit", args: ["--project", "unit"] },
];
const ALL = ["unit", "node", "worker", "worker-fresh", "hardening"];

/** Terminal colour codes, left out of the summary lines. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character starts each code
const ANSI = /\u001b\[[0-9;]*m/g;

const projectArgs = (projects: string[]) => projects.flatMap((p) => ["--project", p]);

interface Outcome {
  name: string;
  /** Why the run failed (its exit code, the signal that ended it, no summary printed), or null. */
  failure: string | null;
  seconds: number;
  summary: string[];
  /** The failed tests, each with the first line of why (vitest's FAIL headings), at most MAX_FAILURES. */
  failed: string[];
}

/** How many failed tests the closing lines name: CI keeps only the tail of the output. */
const MAX_FAILURES = 12;

/** The lanes running now: a signal to this process reaches them too. */
const children = new Set<ReturnType<typeof spawn>>();
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 1;
  });

/** One vitest run; its lines go to our output as they come, each behind `[name] `. */
function run(name: string, args: string[], lane: number | undefined): Promise<Outcome> {
  const started = performance.now();
  const prefix = lane !== undefined;
  const env = lane === undefined ? process.env : { ...process.env, TEST_LANE: String(lane) };
  const child = spawn(process.execPath, [VITEST, "run", ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const summary: string[] = [];
  const failed: string[] = [];
  /** A FAIL heading whose reason (the next non-empty line) is still to come. */
  let heading: string | null = null;
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const plain = line.replace(ANSI, "");
        if (/^\s*(Test Files|Tests)\s/.test(plain)) summary.push(plain.trim().replace(/\s+/g, " "));
        if (heading !== null && plain.trim() !== "") {
          if (failed.length < MAX_FAILURES) failed.push(`${heading}: ${plain.trim().slice(0, 300)}`);
          heading = null;
        }
        if (/^\s*FAIL\s/.test(plain)) heading = plain.trim().replace(/\s+/g, " ");
        out.write(prefix ? `[${name}] ${line}\n` : `${line}\n`);
      }
    });
    stream.on("end", () => {
      if (rest) out.write(prefix ? `[${name}] ${rest}\n` : `${rest}\n`);
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      children.delete(child);
      resolve({
        name,
        // A run that printed no count of its tests did not run them, whatever its exit code says.
        failure: signal
          ? `ended by ${signal}`
          : code !== 0
            ? `exit ${code}`
            : summary.length === 0
              ? "no test summary printed"
              : null,
        seconds: (performance.now() - started) / 1000,
        summary,
        failed,
      });
    });
  });
}

const extra = process.argv.slice(2);
const started = performance.now();
const outcomes =
  extra.length > 0
    ? // The user's own --project narrows the run; else every project.
      [await run("vitest", [...(extra.includes("--project") ? [] : projectArgs(ALL)), ...extra], undefined)]
    : await Promise.all(LANES.map((l, i) => run(l.name, l.args, i + 1)));

console.log(`\nnpm test: ${((performance.now() - started) / 1000).toFixed(1)} s`);
for (const o of outcomes)
  console.log(
    [
      `  ${o.name}: ${o.failure === null ? "passed" : `FAILED (${o.failure})`} in ${o.seconds.toFixed(1)} s; ${o.summary.join("; ")}`,
      ...o.failed.map((f) => `    ${f}`),
    ].join("\n"),
  );
if (outcomes.some((o) => o.failure !== null)) process.exitCode = 1;
