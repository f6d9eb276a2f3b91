import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readDevVars, resolveDevKeys } from "../dev/keys";

/**
 * `npm run catalogue:import -- file.csv [--ingest]`: sends a file of ISINs and symbols (CSV, or a
 * JSON `{"items": [...]}`) to a running service's POST /assets/import and watches the import to its
 * end, printing its counts as they move and the refused and failed lines at the end.
 * SERVICE_URL (default http://127.0.0.1:8787) and SERVICE_API_KEY (default: the local stack's
 * full-access key, from .dev.vars or .data/dev-keys.json) name the service.
 */
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: npm run catalogue:import -- <file.csv|file.json> [--ingest]");
  process.exit(2);
}
const base = (process.env.SERVICE_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const key =
  process.env.SERVICE_API_KEY ??
  resolveDevKeys(process.env, readDevVars(".dev.vars"), resolve(".data/dev-keys.json")).full;
const headers = { "x-api-key": key };

interface ImportState {
  id: number;
  status: string;
  lines: number;
  counts: Record<string, number>;
  line_results: { line: number; asked: string; outcome: string; reason: string | null }[];
}

async function send(): Promise<ImportState> {
  const body = readFileSync(file as string, "utf8");
  const json = (file as string).endsWith(".json");
  const res = await fetch(`${base}/assets/import${args.includes("--ingest") && !json ? "?ingest=true" : ""}`, {
    method: "POST",
    headers: { ...headers, "content-type": json ? "application/json" : "text/csv" },
    body,
  });
  if (res.status !== 202) throw new Error(`POST /assets/import answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as ImportState;
}

async function read(id: number, query = "limit=0"): Promise<ImportState> {
  const res = await fetch(`${base}/assets/import/${id}?${query}`, { headers });
  if (res.status !== 200) throw new Error(`GET /assets/import/${id} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as ImportState;
}

const counts = (s: ImportState) =>
  Object.entries(s.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

const started = await send();
console.log(`import ${started.id}: ${started.lines} line(s); ${counts(started)}`);
let state = started;
while (state.status !== "finished") {
  await new Promise((r) => setTimeout(r, 2000));
  const next = await read(started.id);
  if (counts(next) !== counts(state)) console.log(`import ${started.id}: ${counts(next)}`);
  state = next;
}
for (const outcome of ["refused", "failed"]) {
  const page = await read(started.id, `outcome=${outcome}&limit=1000`);
  for (const l of page.line_results) console.log(`  line ${l.line} (${l.asked}) ${outcome}: ${l.reason}`);
}
console.log(`import ${started.id} finished: ${counts(state)}`);
