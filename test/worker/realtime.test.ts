import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { listings, pricesIntraday } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import type {
  Quote,
  QuotesAnswer,
  RealtimeStatus,
  Subscription,
  UnsubscribeAnswer,
} from "../../src/routes/realtime/schema";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
import { fault, forgetCached } from "../helpers/listings";
import { call } from "../helpers/worker-http";
import { openSocket } from "../helpers/ws-client";

const deps = buildDeps(env);
const started: string[] = [];

afterAll(async () => {
  for (const t of started) await call(`/realtime/subscribe/${t}`, { method: "DELETE" });
  await deps.close();
});

const TICK_FIELDS = ["close", "currency", "exchange", "high", "low", "open", "source", "ticker", "timestamp", "volume"];

describe("WS /ws/realtime/{ticker}", () => {
  it("streams ticks with the Realtime tick layout to a full-access client, answers ping, closes on unsubscribe", async () => {
    started.push("AAPL");
    const sock = await openSocket("aapl", FULL_KEY, { header: true });
    const tick = await sock.next((m) => m.type === "tick");
    expect(Object.keys(tick).sort()).toEqual(["data", "error", "ticker", "ts", "type"]);
    expect(tick.ticker).toBe("AAPL");
    expect(tick.error).toBeNull();
    const data = tick.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(TICK_FIELDS);
    expect(data).toMatchObject({ ticker: "AAPL", source: "stream_provider", exchange: null, currency: null });
    expect(data.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
    for (const k of ["open", "high", "low", "close"]) expect(data[k]).toMatch(/^\d+(\.\d+)?$/);
    expect(Number.isInteger(data.volume)).toBe(true);

    const before = sock.raw.length;
    sock.ws.send("ping");
    await sock.next((m) => m.type === "pong", 3000, before);
    expect(sock.raw.slice(before)).toContain('{"type":"pong"}');
    const beforeJson = sock.raw.length;
    sock.ws.send('{"type": "PING"}');
    await sock.next((m) => m.type === "pong", 3000, beforeJson);

    sock.ws.send("unsubscribe");
    expect((await sock.closed).code).toBe(1000);
  });

  it("closes a connection without a valid key with 1008", async () => {
    for (const key of [null, "wrong-key"]) {
      const sock = await openSocket("AAPL", key);
      expect((await sock.closed).code).toBe(1008);
    }
  });

  it("takes a read-only key from the URL, a full-access key only from a header unless the setting allows the URL", async () => {
    const readOnly = await openSocket("MSFT", READ_ONLY_KEY);
    expect((await readOnly.next(() => true)).type).toBe("not_streaming");
    const full = await openSocket("MSFT", FULL_KEY);
    expect(await full.closed).toEqual({
      code: 1008,
      reason: "a full-access key is not taken from the URL: send it as a header, or use a read-only key",
    });
    // WS_FULL_ACCESS_KEY_IN_URL=true restores the spec's reading (Authentication 8); the key is checked, then the ticker.
    const ctx = createExecutionContext();
    const allowed = await worker.fetch(
      new Request(`http://svc/ws/realtime/${"-".repeat(11)}?token=${FULL_KEY}`, { headers: { Upgrade: "websocket" } }),
      { ...env, WS_FULL_ACCESS_KEY_IN_URL: "true" },
      ctx,
    );
    const ws = (allowed as Response & { webSocket: WebSocket | null }).webSocket;
    expect(allowed.status).toBe(101);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws?.addEventListener("close", (ev) => resolve({ code: ev.code, reason: ev.reason })),
    );
    (ws as WebSocket & { accept(): void }).accept();
    expect(await closed).toEqual({ code: 1008, reason: "invalid ticker" });
    await waitOnExecutionContext(ctx);
  });

  it("checks the key before it reads the ticker: a keyless 16,000-character ticker is refused for its key", async () => {
    const long = "-".repeat(15_999);
    const keyless = await openSocket(long, null);
    expect(await keyless.closed).toEqual({ code: 1008, reason: "missing or unknown API key" });
    // With a key, the same ticker is refused for what it is.
    const keyed = await openSocket(long, READ_ONLY_KEY, { header: true });
    expect(await keyed.closed).toEqual({ code: 1008, reason: "invalid ticker" });
  });

  it("tells a read-only client first that the ticker is not streamed, then closes; it starts nothing", async () => {
    await forgetCached("quote:MSFT");
    const sock = await openSocket("MSFT", READ_ONLY_KEY, { header: true });
    const first = await sock.next(() => true);
    expect(first.type).toBe("not_streaming");
    expect(first.data).toBeNull();
    expect(first.error).toBe(
      "MSFT is not streamed; a read-only key cannot start a stream (subscribe with a full-access key)",
    );
    // Not kept open on a ticker with nothing to send.
    expect(await sock.closed).toEqual({ code: 1000, reason: "not streamed" });
    const status = await call<RealtimeStatus>("/realtime/status");
    expect(status.body.active_tickers).not.toContain("MSFT");
  });
});

describe("quotes and subscriptions", () => {
  it("switches GET /quote from the delayed price to the stream after subscribing, and stores candles", async () => {
    await forgetCached("quote:NVDA");
    const delayed = await call<Quote>("/quote/NVDA");
    expect(delayed.status).toBe(200);
    expect(delayed.body).toMatchObject({
      ticker: "NVDA",
      is_realtime: false,
      source: "delayed_provider",
      delay_seconds: 900,
    });
    expect(delayed.body.previous_close).toMatch(/^\d+(\.\d+)?$/);

    started.push("NVDA");
    const sub = await call<Subscription[]>("/realtime/subscribe", { method: "POST", body: { tickers: ["nvda"] } });
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual([
      expect.objectContaining({
        ticker: "NVDA",
        tv_exchange: "NASDAQ",
        tv_symbol: "NVDA",
        is_active: true,
        is_streaming: true,
      }),
    ]);

    await expect.poll(async () => (await call<Quote>("/quote/NVDA")).body.is_realtime, { timeout: 5000 }).toBe(true);
    const live = await call<Quote>("/quote/NVDA");
    expect(live.body).toMatchObject({
      ticker: "NVDA",
      is_realtime: true,
      source: "stream_provider",
      delay_seconds: 0,
      change: "0",
      change_pct: "0",
      previous_close: null,
    });

    const [nvda] = await deps.db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, "NVDA"));
    const candles = await deps.db
      .select()
      .from(pricesIntraday)
      .where(eq(pricesIntraday.listingId, Number(nvda?.id)));
    expect(candles.length).toBeGreaterThan(0);
    expect(candles.every((c) => c.minute.getUTCSeconds() === 0 && c.source === "stream_provider")).toBe(true);

    // The stored subscription counts the ticks.
    const again = await call<Subscription[]>("/realtime/subscribe", { method: "POST", body: { tickers: ["NVDA"] } });
    expect(again.body[0]?.tick_count).toBeGreaterThan(0);
    expect(again.body[0]?.last_tick_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const status = await call<RealtimeStatus>("/realtime/status");
    expect(status.body.active_tickers).toContain("NVDA");
    expect(status.body.worker_running).toBe(true);

    const quotes = await call<QuotesAnswer>("/quotes?tickers=NVDA,NOSUCHSYM,msft");
    expect(quotes.body.tickers).toEqual(["NVDA", "NOSUCHSYM", "MSFT"]);
    expect(quotes.body.quotes.NVDA?.is_realtime).toBe(true);
    expect(quotes.body.quotes.NOSUCHSYM).toBeNull();
    expect(quotes.body.quotes.MSFT?.source).toBe("delayed_provider");

    const gone = await call<UnsubscribeAnswer>("/realtime/subscribe/NVDA", { method: "DELETE" });
    expect(gone.body).toEqual({ status: "unsubscribed", ticker: "NVDA" });
    expect((await call("/realtime/subscribe/NVDA", { method: "DELETE" })).status).toBe(404);
    await deps.db.delete(pricesIntraday).where(eq(pricesIntraday.listingId, Number(nvda?.id)));
  });
});

const streamSim = inject("streamSimUrl");

describe("who may start a stream", () => {
  it("starts one from GET /quote?subscribe_if_missing only for a full-access key", async () => {
    started.push("AMZN");
    await forgetCached("quote:AMZN");
    // Each call returns once its background work (waitUntil) has settled: what it started has started.
    const ro = await call<Quote>("/quote/AMZN?subscribe_if_missing=true", {
      key: READ_ONLY_KEY,
      settleBackground: true,
    });
    expect(ro.body.is_realtime).toBe(false);
    expect((await call<RealtimeStatus>("/realtime/status")).body.active_tickers).not.toContain("AMZN");
    const full = await call<Quote>("/quote/AMZN?subscribe_if_missing=true", { settleBackground: true });
    expect(full.body.source).toBe("delayed_provider");
    expect((await call<RealtimeStatus>("/realtime/status")).body.active_tickers).toContain("AMZN");
  });

  it("keeps to the limits: 20 quotes, 50 subscriptions", async () => {
    const many = Array.from({ length: 25 }, (_, i) => `Q${i}`);
    const quotes = await call<QuotesAnswer>(`/quotes?tickers=${many.join(",")}`);
    expect(quotes.body.count).toBe(20);
    expect(quotes.body.tickers).toEqual(many.slice(0, 20));
    const tooMany = await call("/realtime/subscribe", {
      method: "POST",
      body: { tickers: Array.from({ length: 51 }, (_, i) => `S${i}`) },
    });
    expect(tooMany.status).toBe(400);
    expect(
      (await call("/realtime/subscribe", { method: "POST", body: { tickers: ["AAPL"] }, key: READ_ONLY_KEY })).status,
    ).toBe(403);
  });
});

describe("stream lifecycle", () => {
  it("counts clients, sends a snapshot to a late client, and recovers a dropped upstream without client reconnects", async () => {
    started.push("TSLA");
    const a = await openSocket("TSLA", FULL_KEY, { header: true });
    await a.next((m) => m.type === "tick");
    const b = await openSocket("TSLA", READ_ONLY_KEY);
    // A client joining a running stream gets the cached last tick first.
    expect((await b.next(() => true)).type).toBe("snapshot");
    const status = await call<RealtimeStatus>("/realtime/status");
    expect(status.body.ws_connections.TSLA).toBe(2);
    expect(status.body.stale_tickers).not.toContain("TSLA");

    const res = await fetch(`${streamSim}/__sandbox/stream`, {
      method: "POST",
      body: JSON.stringify({ symbol: "NASDAQ:TSLA", action: "drop" }),
    });
    expect(((await res.json()) as { affected: number }).affected).toBe(1);
    const mark = a.messages.length;
    // Backoff starts near 1 s; ticks come again on the same client sockets.
    await a.next((m) => m.type === "tick", 8000, mark);
    await b.next((m) => m.type === "tick", 8000, b.messages.length);
    expect((await call<RealtimeStatus>("/realtime/status")).body.ws_connections.TSLA).toBe(2);
    a.ws.close(1000);
    b.ws.close(1000);
  });

  it("reopens a stalled provider connection (nothing received, not even heartbeats)", async () => {
    started.push("GOOGL");
    const sock = await openSocket("GOOGL", FULL_KEY, { header: true });
    await sock.next((m) => m.type === "tick");
    const res = await fetch(`${streamSim}/__sandbox/stream`, {
      method: "POST",
      body: JSON.stringify({ symbol: "NASDAQ:GOOGL", action: "stall" }),
    });
    expect(((await res.json()) as { affected: number }).affected).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    const mark = sock.messages.length;
    await sock.next((m) => m.type === "tick", 10_000, mark);
    sock.ws.close(1000);
  });

  it("ends the stream with an error to its clients when the provider refuses the symbol", async () => {
    await fault(streamSim, "NASDAQ:ZZZZ", "symbol_error", 1000);
    const sock = await openSocket("ZZZZ", FULL_KEY, { header: true });
    const err = await sock.next((m) => m.type === "error");
    expect(err.error).toContain("symbol_error");
    expect((await sock.closed).code).toBe(1011);
    expect((await call<RealtimeStatus>("/realtime/status")).body.active_tickers).not.toContain("ZZZZ");
  });

  it("answers a symbol the stream provider refuses as refused, with its reason, never as streaming", async () => {
    // NVDA: this file's own streamed ticker.
    started.push("NVDA");
    const sub = await call<Subscription[]>("/realtime/subscribe", {
      method: "POST",
      body: { tickers: ["NOPE.XX", "NVDA"] },
    });
    expect(sub.status).toBe(200);
    const nope = sub.body.find((s) => s.ticker === "NOPE.XX");
    expect(nope).toMatchObject({ is_active: false, is_streaming: false, stream_state: "refused" });
    expect(nope?.refused_reason).toBe("stream_provider: symbol_error for NASDAQ:NOPE.XX: invalid symbol");
    // The other ticker of the same request is taken.
    expect(sub.body.find((s) => s.ticker === "NVDA")).toMatchObject({
      is_active: true,
      is_streaming: true,
      stream_state: "streaming",
      refused_reason: null,
    });
    const status = (await call<RealtimeStatus>("/realtime/status")).body;
    expect(status.active_tickers).toContain("NVDA");
    expect(status.active_tickers).not.toContain("NOPE.XX");
    expect(status.refused_tickers["NOPE.XX"]?.reason).toBe(nope?.refused_reason);
    expect(status.refused_tickers.NVDA).toBeUndefined();
  });

  it("answers connecting when the provider says nothing within the wait, and stopped when the stream is stopped meanwhile", async () => {
    await fault(streamSim, "NASDAQ:QUIET", "silent", 1000);
    const quiet = await call<Subscription[]>("/realtime/subscribe", { method: "POST", body: { tickers: ["QUIET"] } });
    expect(quiet.body).toEqual([
      expect.objectContaining({
        ticker: "QUIET",
        is_streaming: true,
        stream_state: "connecting",
        refused_reason: null,
      }),
    ]);
    await call("/realtime/subscribe/QUIET", { method: "DELETE" });

    await fault(streamSim, "NASDAQ:HUSH", "silent", 1000);
    const pending = call<Subscription[]>("/realtime/subscribe", { method: "POST", body: { tickers: ["HUSH"] } });
    await expect
      .poll(async () => (await call<RealtimeStatus>("/realtime/status")).body.active_tickers, { timeout: 5000 })
      .toContain("HUSH");
    expect((await call("/realtime/subscribe/HUSH", { method: "DELETE" })).status).toBe(200);
    expect((await pending).body).toEqual([
      expect.objectContaining({ ticker: "HUSH", is_active: false, is_streaming: false, stream_state: "stopped" }),
    ]);
  });

  it("restores stored subscriptions from the cron, catalogue tickers only", async () => {
    started.push("META", "NOTCAT");
    await call("/realtime/subscribe", { method: "POST", body: { tickers: ["META", "NOTCAT"] } });
    // Stop both streams as an eviction would, leaving the stored subscription of META active.
    const streams = env.TICKER_STREAM;
    for (const t of ["META", "NOTCAT"]) await streams.get(streams.idFromName(t)).stop();
    expect((await call<RealtimeStatus>("/realtime/status")).body.active_tickers).not.toContain("META");
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // The cron's restore has run to its end (waitOnExecutionContext): the streams are started, and the run is reported.
    const after = (await call<RealtimeStatus>("/realtime/status")).body;
    expect(after.restore_last_run).toMatchObject({ restored: expect.any(Number), failed: 0 });
    expect(after.restore_last_run?.restored).toBeGreaterThanOrEqual(1);
    const active = after.active_tickers;
    expect(active).toContain("META");
    expect(active).not.toContain("NOTCAT");
  });

  it("stores a London pence line's candles in pounds, as its daily bars are (its ticks stay as the provider sends them)", async () => {
    started.push("SWDA.L");
    const sub = await call<Subscription[]>("/realtime/subscribe", { method: "POST", body: { tickers: ["SWDA.L"] } });
    expect(sub.status).toBe(200);
    const [swda] = await deps.db
      .select({ id: listings.id, currency: listings.currency })
      .from(listings)
      .where(eq(listings.ticker, "SWDA.L"));
    expect(swda?.currency).toBe("GBP");
    const stored = () =>
      deps.db
        .select()
        .from(pricesIntraday)
        .where(eq(pricesIntraday.listingId, Number(swda?.id)));
    await expect.poll(async () => (await stored()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const live = await call<Quote>("/quote/SWDA.L");
    expect(live.body.is_realtime).toBe(true);
    // The tick in pence; every stored candle a hundredth of the stream's prices, within the minute's range.
    const pence = Number(live.body.price);
    for (const c of await stored()) {
      expect(Number(c.close)).toBeGreaterThan((pence / 100) * 0.9);
      expect(Number(c.close)).toBeLessThan((pence / 100) * 1.1);
    }
    await call("/realtime/subscribe/SWDA.L", { method: "DELETE" });
    await deps.db.delete(pricesIntraday).where(eq(pricesIntraday.listingId, Number(swda?.id)));
  });
});
