import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../tools/net";
import { interrupt, launch, stopLaunched } from "./launch";

/**
 * The workspace adapter in a real browser: a static page served from a second local origin (the
 * workspace's stand-in) loads /widgets.json and /apps.json, calls the quote, EOD chart and screener
 * widgets of `npm run dev:sandbox` cross-origin with a read-only key in a header, and draws the EOD
 * figure with plotly.js, in headless Chromium; then /docs renders with every request to another host
 * refused (no network). CI installs Debian's chromium (.ci/run); elsewhere,
 * without it, the test says so and is skipped (CHROMIUM_PATH names another binary).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
const PAGE = new URL("./workspace-page/index.html", import.meta.url);
/** Where the screenshot goes (kept out of the repository with the rest of .data/). */
const SHOTS = new URL("../../.data/screenshots/", import.meta.url);

afterAll(stopLaunched);

/** The stand-in's origin: its page and plotly.js, nothing else. */
async function servePage(): Promise<{ origin: string; server: Server }> {
  const plotly = readFileSync(createRequire(import.meta.url).resolve("plotly.js-dist-min"));
  const page = readFileSync(PAGE);
  const port = await freePort();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://page").pathname;
    if (path === "/plotly.min.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      return res.end(plotly);
    }
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(page);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${port}`, server };
}

describe.skipIf(!haveBrowser && !process.env.CI)("the workspace widgets in headless Chromium", () => {
  it("a page of another origin renders the quote tiles, the EOD candlesticks and the screener rows", async () => {
    const { chromium } = await import("playwright-core");
    const { origin, server } = await servePage();
    // Without the first refresh of the catalogue: the screener lists the three listings ingested here.
    const r = await launch("dev:sandbox", { WORKSPACE_ALLOWED_ORIGIN: origin, REFRESH_SCHEDULED: "false" });
    try {
      // The screener reads stored prices: three listings ingested first (a full-access key).
      const ingest = await fetch(`${r.base}/historical/ingest`, {
        method: "POST",
        headers: { "X-API-KEY": r.key, "content-type": "application/json" },
        body: JSON.stringify({ tickers: ["MC.PA", "SAP.DE", "AIR.PA"], period: "1y" }),
      });
      expect(ingest.status).toBe(200);

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        const failed: string[] = [];
        page.on("requestfailed", (req) => failed.push(`${req.url()}: ${req.failure()?.errorText}`));
        await page.goto(`${origin}/?api=${encodeURIComponent(r.base)}&key=${encodeURIComponent(r.readOnlyKey)}`);
        await page.waitForSelector("body[data-state]", { timeout: 30_000 });
        const status = await page.textContent("#status");
        expect(status, failed.join("\n")).toBe("done");
        expect(await page.textContent("#discovery")).toBe("23 widgets, dashboards: EU markets, Screener and macro");

        const labels = await page.$$eval("#tiles .tile .label", (els) => els.map((e) => e.textContent));
        expect(labels.slice(0, 2)).toEqual(["MC.PA Price", "Change"]);
        expect(labels).toContain("Previous Close");
        const price = await page.textContent("#tiles .tile .value");
        expect(Number(price)).toBeGreaterThan(0);

        // plotly drew the figure as SVG: a candlestick trace with one box per bar, and the volume bars.
        const drawn = await page.evaluate(() => {
          const root = document.querySelector("#chart");
          return {
            svg: root?.querySelectorAll("svg.main-svg").length ?? 0,
            candles: root?.querySelectorAll(".boxlayer .trace path").length ?? 0,
            bars: root?.querySelectorAll(".barlayer .point").length ?? 0,
          };
        });
        expect(drawn.svg).toBeGreaterThan(0);
        expect(drawn.candles).toBeGreaterThan(100);
        expect(drawn.bars).toBeGreaterThan(100);

        const rows = await page.$$eval("#screener tbody tr", (trs) =>
          trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent)),
        );
        expect(rows.map((row) => row[0]).sort()).toEqual(["AIR.PA", "MC.PA", "SAP.DE"]);

        mkdirSync(SHOTS, { recursive: true });
        const shot = new URL("workspace-browser.png", SHOTS);
        await page.screenshot({ path: shot.pathname, fullPage: true });
        console.log(`workspace browser check: screenshot at ${shot.pathname}`);

        // /docs with the network off: every request to another host is refused, and the reference still renders.
        const docs = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        const service = new URL(r.base).origin;
        const outside: string[] = [];
        await docs.route("**/*", (route) => {
          const url = new URL(route.request().url());
          if (url.origin === service) return route.continue();
          outside.push(url.href);
          return route.abort("internetdisconnected");
        });
        // Whatever the page's Content-Security-Policy refuses, the browser says on the console.
        const refused: string[] = [];
        docs.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
        });
        await docs.goto(`${r.base}/docs`);
        // An operation's summary from /openapi.json, drawn by the reference's script: one of the first
        // tag's (the reference opens the first tag; the others are listed by name).
        await docs
          .getByText("An instrument with its preferred listing and all its listings")
          .first()
          .waitFor({ timeout: 60_000 });
        await docs.getByText("Analytics workspace").first().waitFor({ timeout: 10_000 });
        expect(outside).toEqual([]);
        expect(refused).toEqual([]);
        await docs.screenshot({ path: new URL("docs-offline.png", SHOTS).pathname });
        console.log("docs offline check: rendered with every outside request refused");
      } finally {
        await browser.close();
      }
    } finally {
      server.close();
      await interrupt(r);
    }
  }, 180_000);
});
