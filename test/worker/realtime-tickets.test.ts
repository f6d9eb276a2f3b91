import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import type { KeyMeter } from "../../durable-objects/key-meter";
import { StreamTickets } from "../../durable-objects/stream/tickets";
import type { CreatedKeySchema } from "../../src/routes/keys/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";
import { openSocket } from "../helpers/ws-client";

type Created = import("zod").infer<typeof CreatedKeySchema>;
interface Ticket {
  ticket: string;
  ticker: string;
  expires_at: string;
  url: string;
}

const started: string[] = [];
afterAll(async () => {
  for (const t of started) await call(`/realtime/subscribe/${t}`, { method: "DELETE" });
});

const ticketFor = (ticker: string, key: string) =>
  call<Ticket & ErrorBody>("/realtime/ticket", { method: "POST", key, body: { ticker } });

/** The fingerprint per-key limits count by: the first 16 bytes of the key's SHA-256, hex. */
async function fingerprintOf(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

describe("POST /realtime/ticket", () => {
  it("opens one socket as the key that asked, once: a browser never puts a key in the URL", async () => {
    started.push("AAPL");
    const issued = await ticketFor("aapl", FULL_KEY);
    expect(issued.status).toBe(200);
    expect(issued.body.ticket).toMatch(/^tkt_[0-9a-f]{48}$/);
    expect(issued.body.ticker).toBe("AAPL");
    expect(issued.body.url).toBe(`/ws/realtime/AAPL?ticket=${issued.body.ticket}`);
    const lapse = Date.parse(issued.body.expires_at) - Date.now();
    expect(lapse).toBeGreaterThan(25_000);
    expect(lapse).toBeLessThanOrEqual(30_000);
    // A full-access key's ticket starts the stream, as its handshake would.
    const sock = await openSocket("AAPL", null, { ticket: issued.body.ticket });
    const tick = await sock.next((m) => m.type === "tick");
    expect(tick.ticker).toBe("AAPL");
    // Spent: the same ticket again is refused in the protocol, as a bad key is.
    const again = await openSocket("AAPL", null, { ticket: issued.body.ticket });
    expect(await again.closed).toEqual({ code: 1008, reason: "unknown, spent or expired ticket" });
    sock.ws.close(1000, "done");

    // A read-only key: a ticket for a streamed ticker, served what is streamed.
    const readOnly = await ticketFor("AAPL", READ_ONLY_KEY);
    expect(readOnly.status).toBe(200);
    const reader = await openSocket("AAPL", null, { ticket: readOnly.body.ticket });
    expect((await reader.next((m) => m.type === "tick" || m.type === "snapshot")).ticker).toBe("AAPL");
    reader.ws.close(1000, "done");
  });

  it("is bound to its ticker, refuses a malformed ticket before anything else, and gives a read-only key none for a ticker not streamed", async () => {
    const issued = await ticketFor("AAPL", FULL_KEY);
    started.push("AAPL");
    // Another ticker's object never saw it.
    const elsewhere = await openSocket("MSFT", null, { ticket: issued.body.ticket });
    expect(await elsewhere.closed).toEqual({ code: 1008, reason: "unknown, spent or expired ticket" });
    // A ticket of the right shape that was never issued: refused before any object is asked.
    const madeUp = await openSocket("ZZZQ", null, { ticket: `tkt_${"0".repeat(48)}` });
    expect(await madeUp.closed).toEqual({ code: 1008, reason: "unknown, spent or expired ticket" });
    const malformed = await openSocket("-".repeat(15_999), null, { ticket: "tkt_nope" });
    expect(await malformed.closed).toEqual({
      code: 1008,
      reason: "a ticket is tkt_ and 48 hex digits (POST /realtime/ticket)",
    });
    const notStreamed = await ticketFor("MSFT", READ_ONLY_KEY);
    expect(notStreamed.status).toBe(409);
    expect(notStreamed.body.message).toBe(
      "MSFT is not streamed: a read-only key's ticket opens only a streamed ticker (a full-access key starts one, POST /realtime/subscribe)",
    );
    expect(
      (await call<ErrorBody>("/realtime/ticket", { method: "POST", key: null, body: { ticker: "AAPL" } })).status,
    ).toBe(401);
  });

  it("lapses after 30 seconds unspent (the object's clock), is spent even when presented late, and 16 at most wait per key", async () => {
    const stub = env.TICKER_STREAM.get(env.TICKER_STREAM.idFromName("TICKET-LAPSE"));
    await runInDurableObject(stub, async (_instance, state) => {
      let now = "2026-06-01T15:00:00Z";
      const tickets = new StreamTickets(state.storage, { now: () => new Date(now), today: () => now.slice(0, 10) });
      expect((await tickets.keep("tkt_fresh", { kind: "read_only", client: "key:abc" }))?.toISOString()).toBe(
        "2026-06-01T15:00:30.000Z",
      );
      await tickets.keep("tkt_stale", { kind: "full", client: "key:def" });
      now = "2026-06-01T15:00:29.999Z";
      expect(await tickets.spend("tkt_fresh")).toEqual({ kind: "read_only", client: "key:abc" });
      expect(await tickets.spend("tkt_fresh")).toBeNull();
      now = "2026-06-01T15:00:30Z";
      expect(await tickets.spend("tkt_stale")).toBeNull();
      expect(await state.storage.list({ prefix: "ticket:" })).toEqual(new Map());
      // One key cannot crowd a ticker's tickets: its 17th unspent one is refused, another key's is kept.
      for (let i = 0; i < 16; i++)
        expect(await tickets.keep(`tkt_many${i}`, { kind: "read_only", client: "key:abc" })).not.toBeNull();
      expect(await tickets.keep("tkt_many16", { kind: "read_only", client: "key:abc" })).toBeNull();
      expect(await tickets.keep("tkt_other", { kind: "read_only", client: "key:def" })).not.toBeNull();
      // Once they lapse, the key may hold new ones.
      now = "2026-06-01T15:01:00Z";
      expect(await tickets.keep("tkt_later", { kind: "read_only", client: "key:abc" })).not.toBeNull();
      expect([...(await state.storage.list({ prefix: "ticket:" })).keys()]).toEqual(["ticket:tkt_later"]);
    });
  });
});

describe("sockets per key over all tickers", () => {
  it("holds a lease per open socket in the key's meter, whatever the ticker, and frees it when the socket closes", async () => {
    const made = await call<Created>("/keys", {
      method: "POST",
      body: { name: `sockets ${crypto.randomUUID().slice(0, 8)}`, kind: "full" },
    });
    const key = made.body.key;
    const client = `key:${await fingerprintOf(key)}`;
    started.push("AAPL", "NVDA");
    const a = await openSocket("AAPL", key, { header: true });
    const b = await openSocket("NVDA", key, { header: true });
    await a.next((m) => m.type === "tick" || m.type === "snapshot");
    await b.next((m) => m.type === "tick" || m.type === "snapshot");
    const meter = env.KEY_METER.get(env.KEY_METER.idFromName(client.slice(4))) as DurableObjectStub<KeyMeter>;
    // At a cap of 2, the key is full: both sockets are open, on two tickers.
    expect(await meter.openSocket(client, "probe-1", "MSFT", Date.now(), 2)).toBe(2);
    a.ws.close(1000, "done");
    await a.closed;
    // The ticker's object gives the lease back as the socket closes.
    let held: number | null = 2;
    for (let i = 0; i < 50 && held !== null; i++) {
      held = await meter.openSocket(client, "probe-2", "MSFT", Date.now(), 2);
      if (held !== null) await new Promise((r) => setTimeout(r, 100));
    }
    expect(held).toBeNull();
    await meter.closeSocket("probe-2");
    b.ws.close(1000, "done");
  });

  it("drops the leases a ticker never gave back once the cap is reached (asked of the tickers that hold them), never a young one", async () => {
    const client = "key:leaked-leases-test";
    const meter = env.KEY_METER.get(env.KEY_METER.idFromName("leaked-leases-test")) as DurableObjectStub<KeyMeter>;
    await runInDurableObject(meter, async (_instance, state) => {
      // 999 taken long ago, one a moment ago (its socket may still be on its way).
      const leaked = Object.fromEntries(
        Array.from({ length: 1000 }, (_, i) => [`lease:lost-${i}`, { ticker: "AAPL", at: i === 0 ? Date.now() : 0 }]),
      );
      for (let i = 0; i < 1000; i += 128)
        await state.storage.put(Object.fromEntries(Object.entries(leaked).slice(i, i + 128)));
    });
    // AAPL's object holds none of them: the old ones are dropped, and the new socket's lease is taken.
    expect(await meter.openSocket(client, "fresh", "AAPL", Date.now())).toBeNull();
    await runInDurableObject(meter, async (_instance, state) => {
      expect([...(await state.storage.list({ prefix: "lease:" })).keys()].sort()).toEqual([
        "lease:fresh",
        "lease:lost-0",
      ]);
    });
  });
});
