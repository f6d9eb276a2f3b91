import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * `npm test`: the suite as two vitest runs at once, each with a stack of its own
 * (test/helpers/global-setup.ts): the hardening nets with the unit tests beside them, and the API
 * tests (the Worker's, in one runtime and in fresh ones, and the Node-side tools on their
 * database). Two processes, not two projects of one run: vitest runs one group of projects at a
 * time, and each process then has its own main thread for its embedded database and simulators,
 * so the machine's two cores both work. Each line is printed with its run's name; the exit code is
 * the first failing run's. Arguments (`npm test -- <files or flags>`) run one vitest over every
 * project instead, as before.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));

const RUNS = [
  { name: "nets+unit", projects: ["hardening", "unit"] },
  { name: "api", projects: ["worker", "worker-fresh", "node"] },
];
const ALL = RUNS.flatMap((r) => r.projects);

/** Terminal colour codes, left out of the summary lines. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character starts each code
const ANSI = /\u001b\[[0-9;]*m/g;

const projectArgs = (projects: string[]) => projects.flatMap((p) => ["--project", p]);

interface Outcome {
  name: string;
  code: number;
  seconds: number;
  summary: string[];
}

/** One vitest run; its lines go to our output as they come, each behind `[name] `. */
function run(name: string, args: string[], prefix: boolean): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [VITEST, "run", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const summary: string[] = [];
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const plain = line.replace(ANSI, "");
        if (/^\s*(Test Files|Tests)\s/.test(plain)) summary.push(plain.trim().replace(/\s+/g, " "));
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
    child.on("close", (code, signal) =>
      resolve({
        name,
        code: code ?? (signal ? 1 : 0),
        seconds: (performance.now() - started) / 1000,
        summary,
      }),
    );
  });
}

const extra = process.argv.slice(2);
const started = performance.now();
const outcomes =
  extra.length > 0
    ? [await run("vitest", [...projectArgs(ALL), ...extra], false)]
    : await Promise.all(RUNS.map((r) => run(r.name, projectArgs(r.projects), true)));

console.log(`\nnpm test: ${((performance.now() - started) / 1000).toFixed(1)} s`);
for (const o of outcomes)
  console.log(
    `  ${o.name}: ${o.code === 0 ? "passed" : `FAILED (exit ${o.code})`} in ${o.seconds.toFixed(1)} s; ${o.summary.join("; ")}`,
  );
process.exitCode = outcomes.find((o) => o.code !== 0)?.code ?? 0;
