import {
  createExecutionContext,
  createScheduledController,
  evictDurableObject,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MAX_CLIENT_MESSAGE_BYTES } from "../../durable-objects/stream/clients";
import { TickerStream } from "../../durable-objects/ticker-stream";
import { pinnedClock } from "../../src/clock";
import { listings, pricesIntraday, realtimeSubscriptions } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import type { LiveBar } from "../../src/providers/stream/live";
import type { Quote, RealtimeStatus, Subscription } from "../../src/routes/realtime/schema";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
import { clearFault, fault, forgetCached } from "../helpers/listings";
import { call } from "../helpers/worker-http";
import { openSocket } from "../helpers/ws-client";

const streamSim = inject("streamSimUrl");
const streamWsUrl = inject("workerBindings").STREAM_PROVIDER_WS_URL ?? "";
const deps = buildDeps(env);
const started: string[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const objectOf = (ticker: string) => env.TICKER_STREAM.get(env.TICKER_STREAM.idFromName(ticker));

/** Points one object at another stream-provider address (a setting, as a deploy would give it). */
function useStreamUrl(instance: TickerStream, url: string): void {
  Object.assign(instance, {
    deps: buildDeps({ ...env, STREAM_PROVIDER_WS_URL: url }, { deadlineMs: Number.POSITIVE_INFINITY }),
  });
}

afterAll(async () => {
  for (const t of started) await objectOf(t).stop();
  await deps.close();
});

describe("TickerStream: the provider connection", () => {
  it("closes a connection that completes after stop(): nothing streams for an unsubscribed ticker", async () => {
    started.push("QCOM");
    await runInDurableObject(objectOf("QCOM"), async (instance: TickerStream) => {
      useStreamUrl(instance, `${streamWsUrl}?connect_delay_ms=1000`);
      const starting = instance.start("QCOM");
      await sleep(200);
      await instance.stop();
      // start() returns once its connect has completed: the late connection has been adopted or closed.
      await starting;
      expect(await instance.status()).toMatchObject({ streaming: false, connected: false, lastTickAt: null });
    });
  });

  it("gives up on a connect that never completes at the provider deadline, then retries", async () => {
    started.push("AMD");
    await runInDurableObject(objectOf("AMD"), async (instance: TickerStream, state) => {
      useStreamUrl(instance, `${streamWsUrl}?connect_delay_ms=hang`);
      await instance.start("AMD");
      expect(await instance.status()).toMatchObject({ streaming: true, connected: false, reconnectAttempts: 1 });
      expect(await state.storage.getAlarm()).not.toBeNull();
      useStreamUrl(instance, streamWsUrl);
      await instance.alarm();
      expect(await instance.status()).toMatchObject({ streaming: true, connected: true, reconnectAttempts: 0 });
      await instance.stop();
    });
  });

  it("comes back after an eviction: an instance built on the stored state reconnects at once", async () => {
    started.push("IBM");
    // A catalogue ticker with its stored subscription (what the spec restores), its stream then gone.
    await call("/realtime/subscribe", { method: "POST", body: { tickers: ["IBM"] } });
    await objectOf("IBM").stop();
    await runInDurableObject(objectOf("IBM"), async (_instance: TickerStream, state) => {
      // What an evicted streaming object leaves behind: its storage, nothing in memory.
      await state.storage.put({ ticker: "IBM", streaming: true });
      const revived = new TickerStream(state, env);
      await expect.poll(async () => (await revived.status()).streaming).toBe(true);
      expect(await revived.status()).toMatchObject({ ticker: "IBM", connected: false });
      // The constructor asks for an alarm at once (the runtime fires it straight away); the alarm reconnects.
      await revived.alarm();
      expect(await revived.status()).toMatchObject({ streaming: true, connected: true, reconnectAttempts: 0 });
      await revived.stop();
    });
    // The stored subscription goes too: no other test's restore brings IBM back.
    await deps.db.update(realtimeSubscriptions).set({ isActive: false }).where(eq(realtimeSubscriptions.ticker, "IBM"));
  });

  it("after a restart, a ticker without a stored subscription does not resume: its object stops streaming", async () => {
    await runInDurableObject(objectOf("ZZNOSUB"), async (_instance: TickerStream, state) => {
      await state.storage.put({ ticker: "ZZNOSUB", streaming: true });
      const revived = new TickerStream(state, env);
      await expect.poll(async () => (await revived.status()).streaming).toBe(true);
      await revived.alarm();
      expect(await revived.status()).toMatchObject({ ticker: "ZZNOSUB", streaming: false, connected: false });
      expect(await state.storage.get("streaming")).toBe(false);
    });
    expect((await call<{ active_tickers: string[] }>("/realtime/status")).body.active_tickers).not.toContain("ZZNOSUB");
  });

  it("answers a full-access upgrade with 503 and accepts no socket when the stream cannot start", async () => {
    await runInDurableObject(objectOf("AVGO"), async (instance: TickerStream, state) => {
      const broken = {
        idFromName: () => ({}),
        get: () => ({ add: () => Promise.reject(new Error("registry unavailable")) }),
      };
      Object.assign(instance, { env: { ...env, STREAM_REGISTRY: broken } });
      const res = await instance.fetch(
        new Request("http://do/?ticker=AVGO&kind=full", { headers: { Upgrade: "websocket" } }),
      );
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: "Upstream unavailable",
        message: "The stream of AVGO could not be started; try again shortly",
      });
      expect(state.getWebSockets()).toHaveLength(0);
      Object.assign(instance, { env });
      await instance.stop();
    });
  });

  it("deactivates the stored subscription of a symbol the provider refuses, so the cron does not restore it", async () => {
    await fault(streamSim, "NYSE:GS", "symbol_error", 1000);
    const res = await call("/realtime/subscribe", { method: "POST", body: { tickers: ["GS"] } });
    expect(res.status).toBe(200);
    const active = async () =>
      (
        await deps.db
          .select({ a: realtimeSubscriptions.isActive })
          .from(realtimeSubscriptions)
          .where(eq(realtimeSubscriptions.ticker, "GS"))
      )[0]?.a;
    await expect.poll(active, { timeout: 5000 }).toBe(false);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await objectOf("GS").status()).streaming).toBe(false);
  });

  it("lists a streamed ticker without a tick in the last 60 s as stale", async () => {
    started.push("CAT");
    const sock = await openSocket("CAT", FULL_KEY, { header: true });
    await sock.next((m) => m.type === "tick");
    expect((await call<RealtimeStatus>("/realtime/status")).body.stale_tickers).not.toContain("CAT");
    await fetch(`${streamSim}/__sandbox/stream`, {
      method: "POST",
      body: JSON.stringify({ symbol: "NYSE:CAT", action: "stall" }),
    });
    await runInDurableObject(objectOf("CAT"), async (instance: TickerStream) => {
      // The object's clock a minute and a bit later, the provider silent meanwhile.
      Object.assign(instance, { clock: pinnedClock(new Date(Date.now() + 61_000)) });
    });
    expect((await call<RealtimeStatus>("/realtime/status")).body.stale_tickers).toContain("CAT");
    sock.ws.close(1000);
  });
});

describe("TickerStream: its clients", () => {
  it("closes a client whose message is over the size cap with 1009, unread; small junk is ignored", async () => {
    started.push("PFE");
    const sock = await openSocket("PFE", FULL_KEY, { header: true });
    await sock.next((m) => m.type === "tick");
    sock.ws.send("x".repeat(MAX_CLIENT_MESSAGE_BYTES - 1));
    sock.ws.send('{"type":"ping"}');
    await sock.next((m) => m.type === "pong");
    sock.ws.send("x".repeat(MAX_CLIENT_MESSAGE_BYTES + 1));
    expect(await sock.closed).toEqual({ code: 1009, reason: `messages are at most ${MAX_CLIENT_MESSAGE_BYTES} bytes` });
  });

  it("answers a bare ping in the runtime, without waking the object", async () => {
    await runInDurableObject(objectOf("PFE"), async (_instance: TickerStream, state) => {
      const pair = state.getWebSocketAutoResponse();
      expect(pair?.request).toBe("ping");
      expect(pair?.response).toBe('{"type":"pong"}');
    });
  });

  it("keeps its clients through an eviction: the object woken by its alarm streams to the same sockets", async () => {
    started.push("CVX");
    // A catalogue ticker with its stored subscription: what an object woken after an eviction resumes.
    expect((await call("/realtime/subscribe", { method: "POST", body: { tickers: ["CVX"] } })).status).toBe(200);
    const clients = [await openSocket("CVX", FULL_KEY, { header: true }), await openSocket("CVX", READ_ONLY_KEY)];
    let closes = 0;
    for (const c of clients) void c.closed.then(() => (closes += 1));
    for (const c of clients) await c.next((m) => m.type === "tick");
    const stub = objectOf("CVX");
    await runInDurableObject(stub, (instance: TickerStream) => {
      Object.assign(instance, { beforeEviction: true });
    });

    // The provider goes away and refuses reconnects: the object waits for its backoff alarm with
    // nothing in flight, the state in which the runtime evicts an object holding only clients.
    await fault(streamSim, "NYSE:CVX", "drop", 1000);
    await fetch(`${streamSim}/__sandbox/stream`, {
      method: "POST",
      body: JSON.stringify({ symbol: "NYSE:CVX", action: "drop" }),
    });
    await expect.poll(async () => (await stub.status()).connected).toBe(false);
    // The runtime tears the instance down and hibernates its sockets; storage (and the alarm) stays.
    await evictDurableObject(stub);
    await clearFault(streamSim, "NYSE:CVX");
    const marks = clients.map((c) => c.messages.length);
    // Nothing wakes it but its own alarm: the new instance reconnects and ticks reach the old sockets.
    for (const [i, c] of clients.entries()) await c.next((m) => m.type === "tick", 10_000, marks[i]);

    await runInDurableObject(stub, async (instance: TickerStream, state) => {
      expect(instance).not.toHaveProperty("beforeEviction");
      expect(state.getWebSockets()).toHaveLength(2);
      expect(await instance.status()).toMatchObject({ ticker: "CVX", streaming: true, connected: true, clients: 2 });
    });
    expect(closes).toBe(0);
    expect((await call<RealtimeStatus>("/realtime/status")).body.ws_connections.CVX).toBe(2);
    for (const c of clients) c.ws.close(1000);
    await call("/realtime/subscribe/CVX", { method: "DELETE" });
  });

  it("serves GET /quote from the object itself when no shared cache holds ticks", async () => {
    started.push("NKE");
    const sock = await openSocket("NKE", FULL_KEY, { header: true });
    const tick = await sock.next((m) => m.type === "tick");
    await forgetCached("quote:NKE");
    const quote = await call<Quote>("/quote/NKE", {
      env: { UPSTASH_REDIS_REST_URL: "", UPSTASH_REDIS_REST_TOKEN: "" },
    });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ ticker: "NKE", is_realtime: true, source: "stream_provider", delay_seconds: 0 });
    expect(Date.parse(quote.body.timestamp)).toBeGreaterThanOrEqual(Date.parse(String(tick.data?.timestamp)));
    sock.ws.close(1000);
  });
});

describe("TickerStream: candles outside the venue's session", () => {
  it("stores a session's candles, and counts a Saturday's without storing it", async () => {
    started.push("ADI");
    const sub = await call<Subscription[]>("/realtime/subscribe", { method: "POST", body: { tickers: ["ADI"] } });
    expect(sub.status).toBe(200);
    const [adi] = await deps.db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, "ADI"));
    const candles = () =>
      deps.db
        .select()
        .from(pricesIntraday)
        .where(eq(pricesIntraday.listingId, Number(adi?.id)));
    // The stream's own minutes (a Wednesday afternoon, in Nasdaq's session) are stored.
    await expect.poll(async () => (await candles()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const saturday = new Date("2026-11-28T15:00:00Z");
    await runInDurableObject(objectOf("ADI"), async (instance: TickerStream) => {
      const bar: LiveBar = {
        time: saturday.getTime() / 1000,
        open: 1,
        high: 1,
        low: 1,
        close: 1,
        volume: 10,
        currency: "USD",
      };
      (instance as unknown as { onBar(ticker: string, bar: LiveBar): void }).onBar("ADI", bar);
    });
    const counted = async () =>
      (await deps.db.select().from(realtimeSubscriptions).where(eq(realtimeSubscriptions.ticker, "ADI")))[0];
    await expect.poll(async () => (await counted())?.outOfSessionCount, { timeout: 5000 }).toBe(1);
    expect((await counted())?.lastOutOfSessionAt?.toISOString()).toBe(saturday.toISOString());
    expect((await candles()).map((c) => c.minute.toISOString())).not.toContain(saturday.toISOString());
    const status = await call<RealtimeStatus>("/realtime/status");
    expect(status.body.out_of_session.ADI).toEqual({ candles: 1, last_at: saturday.toISOString() });
    await call("/realtime/subscribe/ADI", { method: "DELETE" });
    await deps.db.delete(pricesIntraday).where(eq(pricesIntraday.listingId, Number(adi?.id)));
    await deps.db.delete(realtimeSubscriptions).where(eq(realtimeSubscriptions.ticker, "ADI"));
  });
});
