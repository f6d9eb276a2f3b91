import { existsSync, mkdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { interrupt, launch, sleep, stopLaunched } from "./launch";

/**
 * The realtime example page (/examples/realtime, served by the docs Worker) in headless Chromium
 * against `npm run dev:sandbox`: given a read-only key, it gets a ticket over HTTP, opens the socket
 * with it and shows ticks; when its socket is dropped, it gets a new ticket and ticks again. In the
 * same page a full-access key in the socket's URL is refused. Skipped without Chromium outside CI
 * (.ci/run installs it; CHROMIUM_PATH names another binary).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
const SHOTS = new URL("../../.data/screenshots/", import.meta.url);

afterAll(stopLaunched);

describe.skipIf(!haveBrowser && !process.env.CI)("the realtime example in headless Chromium", () => {
  it("receives ticks through a ticket, recovers when its socket is dropped, and a full-access key in the URL is refused", async () => {
    const { chromium } = await import("playwright-core");
    const r = await launch("dev:sandbox", { REFRESH_SCHEDULED: "false" });
    try {
      // A read-only key is served what is streamed: the stream is started with the full-access key.
      const subscribed = await fetch(`${r.base}/realtime/subscribe`, {
        method: "POST",
        headers: { "X-API-KEY": r.key, "content-type": "application/json" },
        body: JSON.stringify({ tickers: ["MC.PA"] }),
      });
      expect(subscribed.status).toBe(200);

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
        const refused: string[] = [];
        const urls: string[] = [];
        page.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
        });
        const sockets: string[] = [];
        page.on("request", (req) => urls.push(req.url()));
        page.on("websocket", (ws) => sockets.push(ws.url()));
        await page.goto(`${r.base}/examples/realtime`);
        await page.fill("#key", r.readOnlyKey);
        await page.fill("#ticker", "mc.pa");
        await page.click("button[type=submit]");

        const number = async (id: string) => Number(await page.textContent(`#${id}`));
        const until = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
          const end = Date.now() + ms;
          while (Date.now() < end) {
            if (await ok()) return;
            await sleep(200);
          }
          throw new Error(`${what} within ${ms} ms; the page says ${await page.textContent("#log")}`);
        };
        await until("two ticks", async () => (await number("ticks")) >= 2);
        expect(await number("connections")).toBe(1);
        expect(await page.textContent("#price")).toMatch(/^\d+(\.\d+)?( [A-Z]{3})?$/);

        // A drop: the page asks for a new ticket, opens a second socket and ticks go on.
        const before = await number("ticks");
        await page.click("#drop");
        await until("a second socket", async () => (await number("connections")) === 2);
        await until("ticks after the drop", async () => (await number("ticks")) >= before + 2);

        // No key in any URL the page used: the sockets went out with tickets.
        expect(sockets.length).toBeGreaterThanOrEqual(2);
        for (const u of sockets) expect(u).toMatch(/\/ws\/realtime\/MC\.PA\?ticket=tkt_[0-9a-f]{48}$/);
        expect([...urls, ...sockets].join(" ")).not.toContain(r.readOnlyKey);
        expect(refused).toEqual([]);

        // A full-access key in the socket's URL is refused within the protocol (1008).
        const closed = await page.evaluate(
          (key) =>
            new Promise<{ code: number; reason: string }>((resolve) => {
              const ws = new WebSocket(`ws://${location.host}/ws/realtime/MC.PA?token=${encodeURIComponent(key)}`);
              ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason }));
            }),
          r.key,
        );
        expect(closed).toEqual({
          code: 1008,
          reason: "a full-access key is not taken from the URL: send it as a header, or use a read-only key",
        });

        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: new URL("realtime-example.png", SHOTS).pathname, fullPage: true });
      } finally {
        await browser.close();
      }
    } finally {
      await interrupt(r);
    }
  }, 180_000);
});
