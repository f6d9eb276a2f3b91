import { type AddressInfo, createConnection, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DelayProxy, startDelayProxy } from "../../tools/dev/delay-proxy";

/** The distance benchmark's proxy: each chunk held the delay each way, in order, and the exchanges counted. */

const echo = createServer((s) => s.on("data", (d) => s.write(d)));
let proxy: DelayProxy;

beforeAll(async () => {
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", () => r()));
  proxy = await startDelayProxy({ host: "127.0.0.1", port: (echo.address() as AddressInfo).port }, 30);
});
afterAll(async () => {
  await proxy.close();
  echo.close();
});

/** Sends each message and waits for its echo; answers the echoes and how long each took. */
async function exchange(messages: string[]): Promise<{ echoes: string[]; ms: number[] }> {
  const socket = createConnection({ host: "127.0.0.1", port: proxy.port });
  await new Promise<void>((r) => socket.once("connect", () => r()));
  const echoes: string[] = [];
  const ms: number[] = [];
  for (const m of messages) {
    const t0 = performance.now();
    const got = new Promise<string>((r) => socket.once("data", (d) => r(String(d))));
    socket.write(m);
    echoes.push(await got);
    ms.push(performance.now() - t0);
  }
  socket.end();
  return { echoes, ms };
}

describe("the delaying proxy", () => {
  it("holds each chunk the delay each way, and counts the connection and its round trips", async () => {
    proxy.reset();
    const { echoes, ms } = await exchange(["one", "two", "three"]);
    expect(echoes).toEqual(["one", "two", "three"]);
    // A round trip is the delay twice (timers may fire a millisecond early).
    for (const t of ms) expect(t).toBeGreaterThanOrEqual(58);
    expect(proxy.counts()).toEqual({ connections: 1, roundTrips: 3 });
  });

  it("keeps a burst of chunks in order, each way, however the delay changes under it", async () => {
    proxy.delayMs = 30;
    const socket = createConnection({ host: "127.0.0.1", port: proxy.port });
    await new Promise<void>((r) => socket.once("connect", () => r()));
    const sent: string[] = [];
    let received = "";
    socket.on("data", (d) => {
      received += String(d);
    });
    // Writes spread over several turns of the loop and milliseconds, the delay shortened halfway.
    for (let i = 0; i < 400; i++) {
      const piece = `${String(i).padStart(4, "0")}:${"x".repeat(200)}|`;
      sent.push(piece);
      socket.write(piece);
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 1));
      if (i === 200) proxy.delayMs = 5;
    }
    const whole = sent.join("");
    await new Promise<void>((resolve) => {
      const check = () => (received.length >= whole.length ? resolve() : setTimeout(check, 5));
      check();
    });
    socket.end();
    expect(received).toBe(whole);
    proxy.delayMs = 30;
  });

  it("adds nothing with no delay", async () => {
    proxy.delayMs = 0;
    proxy.reset();
    const { ms } = await exchange(["x"]);
    expect(ms[0]).toBeLessThan(50);
    expect(proxy.counts()).toEqual({ connections: 1, roundTrips: 1 });
    proxy.delayMs = 30;
  });
});
