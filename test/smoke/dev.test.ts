import { afterAll, describe, expect, it } from "vitest";
import { freeFixedPort } from "../../tools/net";
import { interrupt, launch, sleep, stopLaunched } from "./launch";

/** Starts the README's dev commands as a new user would (no DATABASE_URL, no keys, no network) and talks to them over HTTP. */

afterAll(stopLaunched);

describe("npm run dev", () => {
  it("answers /health within 60 s on the embedded PGlite, serves the catalogue, and stops on Ctrl-C", async () => {
    const r = await launch("dev");
    console.log(`dev stack answered /health after ${r.startedInMs} ms`);
    const asset = await fetch(`${r.base}/assets/by-isin/US0378331005`, { headers: { "X-API-KEY": r.key } });
    expect(asset.status).toBe(200);
    const body = (await asset.json()) as { ticker: string; isin: string; listings: unknown[] };
    expect([body.ticker, body.isin, body.listings.length]).toEqual(["AAPL", "US0378331005", 1]);
    expect((await fetch(`${r.base}/assets/by-isin/US0378331005`)).status).toBe(401);
    await interrupt(r);
  }, 120_000);
});

describe("npm run dev:sandbox", () => {
  it("ingests MC.PA from the simulators on the first call and reads the database on the second, offline", async () => {
    const delayedPort = await freeFixedPort();
    // Without the first refresh of the catalogue, whose ingestions would answer this test's first calls.
    const r = await launch("dev:sandbox", { SANDBOX_DELAYED_PORT: String(delayedPort), REFRESH_SCHEDULED: "false" });
    expect(r.output()).toContain("providers: simulators");
    const get = async (path: string) => fetch(`${r.base}${path}`, { headers: { "X-API-KEY": r.key } });
    type Eod = { data_source: string; count: number; data: { Date: string; Close: number; Volume: number }[] };
    const first = (await (await get("/eod/MC.PA?period=1y")).json()) as Eod;
    expect(first.data_source).toBe("delayed_provider");
    expect(first.count).toBeGreaterThan(245);
    const second = (await (await get("/eod/MC.PA?period=1y")).json()) as Eod;
    expect(second.data_source).toBe("database");
    expect(second.data).toEqual(first.data);

    const csv = await (await get("/eod/MC.PA?period=1y&fmt=csv")).text();
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe("Date,Open,High,Low,Close,Adj Close,Volume");
    expect(lines).toHaveLength(first.count + 1);

    const weekly = (await (await get("/eod/MC.PA?period=weekly")).json()) as Eod;
    const daily = (await (await get("/eod/MC.PA?period=daily")).json()) as Eod;
    // Every day's volume lands in exactly one week.
    expect(weekly.data.reduce((n, b) => n + b.Volume, 0)).toBe(daily.data.reduce((n, b) => n + b.Volume, 0));
    expect(weekly.data.at(-1)?.Close).toBe(daily.data.at(-1)?.Close);

    // 50 concurrent first requests of a fresh ticker: 50 identical answers, one history fetch.
    const requests = async () =>
      (await (await fetch(`http://127.0.0.1:${delayedPort}/__sandbox/requests`)).json()) as Record<string, number>;
    const burst = await Promise.all(Array.from({ length: 50 }, () => get("/eod/OR.PA?period=1y")));
    const texts = await Promise.all(burst.map((res) => res.text()));
    const refused = texts.filter((_, i) => burst[i]?.status !== 200);
    expect(
      burst.map((res) => res.status),
      refused.join("\n").slice(0, 1000),
    ).toEqual(Array(50).fill(200));
    const bodies = texts.map((t) => JSON.parse(t) as Eod);
    for (const b of bodies) expect(b.data).toEqual(bodies[0]?.data);
    expect(bodies[0]?.count).toBeGreaterThan(245);
    // The verification's probe and the ten-year history: two charts for fifty requests.
    expect((await requests())["chart OR.PA"]).toBe(2);
    console.log(
      `dev:sandbox: 50 concurrent first GET /eod/OR.PA answered 50 x 200 with identical data and 2 chart requests`,
    );

    // Realtime: the delayed quote until AAPL is subscribed, then the stream's.
    type Quote = { is_realtime: boolean; source: string; delay_seconds: number };
    const before = (await (await get("/quote/AAPL")).json()) as Quote;
    expect(before).toMatchObject({ is_realtime: false, source: "delayed_provider", delay_seconds: 900 });
    const sub = await fetch(`${r.base}/realtime/subscribe`, {
      method: "POST",
      headers: { "X-API-KEY": r.key, "content-type": "application/json" },
      body: JSON.stringify({ tickers: ["AAPL"] }),
    });
    expect(sub.status).toBe(200);
    let after = before;
    for (let i = 0; i < 50 && !after.is_realtime; i++) {
      await sleep(200);
      after = (await (await get("/quote/AAPL")).json()) as Quote;
    }
    expect(after).toMatchObject({ is_realtime: true, source: "stream_provider", delay_seconds: 0 });
    // A WebSocket client (Node's own) gets a snapshot or a tick within 5 s.
    // A read-only key may ride in the URL (a browser's way); a full-access key goes in a header.
    const ws = new WebSocket(`${r.base.replace("http", "ws")}/ws/realtime/AAPL?token=${r.readOnlyKey}`);
    const message = await new Promise<{ type: string; data: { timestamp: string; close: string } }>(
      (resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no message within 5 s")), 5000);
        ws.addEventListener("message", (ev) => {
          clearTimeout(timer);
          resolve(JSON.parse(String(ev.data)));
        });
      },
    );
    expect(["snapshot", "tick"]).toContain(message.type);
    expect(message.data.timestamp).toMatch(/:00Z$/);
    expect(message.data.close).toMatch(/^\d+(\.\d+)?$/);
    ws.close();
    await interrupt(r);
  }, 120_000);
});

describe("npm run dev:sandbox on a new stack", () => {
  it("refreshes the whole catalogue on its own within two minutes, and the default screen draws on it", async () => {
    const r = await launch("dev:sandbox");
    const get = async <T>(path: string) =>
      (await (await fetch(`${r.base}${path}`, { headers: { "X-API-KEY": r.key } })).json()) as T;
    type Run = { trigger: string; status: string; duration_seconds: number | null; listings: Record<string, number> };
    const deadline = Date.now() + 120_000;
    let run: Run | undefined;
    while (Date.now() < deadline) {
      run = (await get<{ runs: Run[] }>("/catalogue/refresh?limit=1")).runs[0];
      if (run?.status === "finished") break;
      await sleep(1000);
    }
    console.log(
      `dev:sandbox: first refresh ${JSON.stringify(run)}, ${Math.round((Date.now() - deadline + 120_000) / 1000)} s after /health`,
    );
    expect(run).toMatchObject({ trigger: "first_run", status: "finished" });
    const listings = run?.listings ?? {};
    expect(listings.queued).toBeGreaterThan(250);
    expect(listings.refreshed).toBe(listings.queued);
    expect(r.output()).toContain("dev: refreshing the catalogue in the background");
    type Screen = { total: number; screened: number; skipped: number; matches: { ticker: string; value: string }[] };
    const screen = await get<Screen>("/technical/screen");
    // Every instrument of the catalogue has its RSI as of last close: the default screen (RSI below 30) has its matches.
    expect(screen.screened).toBeGreaterThan(250);
    expect(screen.skipped).toBe(0);
    expect(screen.matches.length).toBeGreaterThan(0);
    for (const m of screen.matches) expect(Number(m.value)).toBeLessThan(30);
    await interrupt(r);
  }, 240_000);
});
