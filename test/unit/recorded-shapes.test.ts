import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { pinnedClock } from "../../src/clock";
import { SUMMARY_SCHEMA } from "../../src/domain/fundamentals/summary-schema";
import { leafPaths } from "../../src/domain/wire-schema";
import { startEcbSim } from "../../tools/sandbox/ecb";
import { startEdgarSim } from "../../tools/sandbox/edgar";
import { FRED_SIM_KEY, startFredSim } from "../../tools/sandbox/fred";
import { NEWS_SIM_KEY, startNewsSim } from "../../tools/sandbox/news";
import { RECORDED_DIFFERENCES, SIM_REQUESTS, type SimTarget } from "../../tools/sandbox/recorded-differences";
import { loadRecordings, type Recording } from "../../tools/sandbox/replay";
import { startScrapedPagesSim } from "../../tools/sandbox/scraped-pages";
import { bodyShape, compareShapes, type ShapeDifference } from "../../tools/sandbox/shape";
import { startTradingViewSim, type TradingViewSim } from "../../tools/sandbox/tradingview";
import { startYahooSim } from "../../tools/sandbox/yahoo";

/**
 * The simulators held to reality: for every recording of a real answer, the simulator's answer to
 * the same request (tools/sandbox/recorded-differences.ts says which, where the sandbox has not the
 * recorded instrument) has the same structure: the same key paths with the same JSON types. Every
 * difference must be listed by name, with its reason, in RECORDED_DIFFERENCES; a listed difference
 * that no longer happens fails too, so the list stays true.
 */

const recordings = loadRecordings(new URL("../fixtures/recorded", import.meta.url).pathname);
const sims: Partial<Record<Exclude<SimTarget, "stream">, { url: string; close(): Promise<void> }>> = {};
let stream: TradingViewSim | undefined;

/** The first message the stream simulator sends on a new connection (as the provider's handshake frame). */
function firstFrame(wsUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    ws.on("message", (data) => {
      resolve(String(data));
      ws.close();
    });
    ws.on("error", reject);
  });
}
let yahooSession = { cookie: "", crumb: "" };

beforeAll(async () => {
  const clock = pinnedClock("2026-11-25T15:00:00Z");
  sims.delayed = await startYahooSim({ clock });
  sims.edgar = await startEdgarSim();
  sims.fred = await startFredSim({ clock });
  sims.ecb = await startEcbSim({ clock });
  sims.news = await startNewsSim({ clock });
  sims.scraped = await startScrapedPagesSim();
  stream = await startTradingViewSim({ clock });
  const page = await fetch(`${sims.delayed.url}/quote/AAPL`);
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const crumb = await (await fetch(`${sims.delayed.url}/v1/test/getcrumb`, { headers: { cookie } })).text();
  yahooSession = { cookie, crumb };
});
afterAll(async () => {
  for (const s of Object.values(sims)) await s?.close();
  await stream?.close();
});

/** The simulator's answer to a recording's request, with the sandbox's keys and session. */
async function simulated(file: string, recording: Recording): Promise<{ status: number; body: string }> {
  const target = SIM_REQUESTS[file];
  if (!target) throw new Error(`no simulator request for ${file}: add it to SIM_REQUESTS`);
  if (target.sim === "stream") return { status: 101, body: await firstFrame(`${stream?.wsUrl}`) };
  const sim = sims[target.sim];
  if (!sim) throw new Error(`simulator ${target.sim} not started`);
  const recorded = new URL(recording.request.url);
  const url = new URL(target.path === "{recorded}" ? `${recorded.pathname}${recorded.search}` : target.path, sim.url);
  for (const [k, v] of url.searchParams) {
    if (v === "{crumb}") url.searchParams.set(k, yahooSession.crumb);
    if (v === "{fredKey}") url.searchParams.set(k, FRED_SIM_KEY);
    if (v === "{newsKey}") url.searchParams.set(k, NEWS_SIM_KEY);
  }
  const control = `${sim.url}/__sandbox/faults`;
  if (target.fault)
    await fetch(control, {
      method: "POST",
      body: JSON.stringify({ symbol: target.fault.key, mode: target.fault.mode }),
    });
  try {
    const res = await fetch(url, {
      headers: { cookie: yahooSession.cookie, "user-agent": "market-data-service tests@example.com" },
    });
    return { status: res.status, body: await res.text() };
  } finally {
    if (target.fault) await fetch(control, { method: "DELETE" });
  }
}

const matches = (pattern: string, path: string) =>
  pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

/** The differences found for each recording, for the check that the list stays true. */
const seen = new Map<string, ShapeDifference[]>();

describe("every simulator answers as the real provider did", () => {
  const files = recordings.map((r) => `${r.provider}/${r.file}`);

  it("has a simulator request for every recording, and lists no recording that does not exist", () => {
    expect(files.filter((f) => !SIM_REQUESTS[f])).toEqual([]);
    expect(Object.keys(SIM_REQUESTS).filter((f) => !files.includes(f))).toEqual([]);
  });

  it.each(recordings.map((r) => [`${r.provider}/${r.file}`, r] as const))(
    "%s: same key paths and types, or a listed difference",
    async (file, recording) => {
      const sim = await simulated(file, recording);
      expect(sim.status, `the simulator's status for ${file}`).toBe(recording.response.status);
      // A recording whose body was not kept (the handshake's HTML page) is held to its status alone.
      const found =
        recording.response.body === null ? [] : compareShapes(bodyShape(recording.response.body), bodyShape(sim.body));
      const listed = RECORDED_DIFFERENCES.filter((d) => d.files.some((f) => matches(f, file)));
      const explained = (d: ShapeDifference) =>
        listed.some((l) => l.kind === d.kind && l.paths.some((p) => matches(p, d.path)));
      const unexplained = found.filter((d) => !explained(d));
      expect(unexplained.map((d) => `${d.kind} ${d.path} (recorded ${d.recorded}, simulated ${d.simulated})`)).toEqual(
        [],
      );
      // What the service reads of quoteSummary is never excused.
      const read = leafPaths(SUMMARY_SCHEMA).map((p) => `quoteSummary.result[].${p}`);
      expect(found.filter((d) => d.kind === "missing" && read.includes(d.path)).map((d) => d.path)).toEqual([]);
      seen.set(file, found);
    },
  );

  it("lists no difference that no longer happens", () => {
    expect(seen.size).toBe(recordings.length);
    const stale = RECORDED_DIFFERENCES.flatMap((l) =>
      l.paths
        .filter(
          (p) =>
            ![...seen]
              .filter(([file]) => l.files.some((f) => matches(f, file)))
              .some(([, found]) => found.some((d) => d.kind === l.kind && matches(p, d.path))),
        )
        .map((p) => `${l.kind} ${p} (${l.files.join(", ")})`),
    );
    expect(stale).toEqual([]);
  });
});
