import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock } from "../../src/clock";
import { CookieJar } from "../../src/providers/delayed/cookies";
import { DelayedFundamentalsClient } from "../../src/providers/delayed/fundamentals";
import { hiddenFields } from "../../src/providers/delayed/session";
import { TIMESERIES_ITEMS } from "../../src/providers/delayed/timeseries-items";
import { ProviderError } from "../../src/providers/errors";
import { startYahooSim, type YahooSim } from "../../tools/sandbox/yahoo";

const TODAY = "2026-11-25";
const T0 = Date.parse("2026-11-25T12:00:00Z");

describe("the delayed provider's cookie jar", () => {
  it("sends a domain cookie to the domain and its subdomains, a host-only one to its host only", () => {
    const jar = new CookieJar();
    jar.keep(
      ["A3=d=AQAB&S=x; Max-Age=60; Domain=.yahoo.com; Path=/; Secure; HttpOnly", "host=1; Path=/"],
      "https://finance.yahoo.com/quote/AAPL",
      T0,
    );
    expect(jar.header("https://query1.finance.yahoo.com/v1/test/getcrumb", T0)).toBe("A3=d=AQAB&S=x");
    expect(jar.header("https://finance.yahoo.com/x", T0)).toBe("A3=d=AQAB&S=x; host=1");
    expect(jar.header("https://yahoo.com/", T0)).toBe("A3=d=AQAB&S=x");
    // Secure: never over plain HTTP; another site: never.
    expect(jar.header("http://finance.yahoo.com/x", T0)).toBe("host=1");
    expect(jar.header("https://notyahoo.com/", T0)).toBe("");
  });

  it("expires cookies on the caller's clock (Max-Age over Expires), and a Max-Age of 0 deletes one", () => {
    const jar = new CookieJar();
    const url = "https://finance.yahoo.com/";
    jar.keep(
      ["a=1; Max-Age=60; Expires=Wed, 01 Jan 2031 00:00:00 GMT", "b=2; Expires=Thu, 26 Nov 2026 00:00:00 GMT"],
      url,
      T0,
    );
    expect(jar.header(url, T0 + 59_000)).toBe("a=1; b=2");
    expect(jar.header(url, T0 + 60_000)).toBe("b=2");
    expect(jar.header(url, Date.parse("2026-11-26T00:00:00Z"))).toBe("");
    jar.keep(["b=3; Max-Age=0"], url, T0);
    expect(jar.header(url, T0)).toBe("a=1");
  });

  it("keeps paths apart, replaces a cookie of the same name, domain and path, and refuses another site's", () => {
    const jar = new CookieJar();
    jar.keep(
      ["p=1; Path=/v2", "p=2; Path=/", "x=1; Domain=example.com"],
      "https://consent.yahoo.com/v2/collectConsent",
      T0,
    );
    expect(jar.header("https://consent.yahoo.com/v2/collectConsent", T0)).toBe("p=1; p=2");
    expect(jar.header("https://consent.yahoo.com/v20", T0)).toBe("p=2");
    jar.keep(["p=3; Path=/"], "https://consent.yahoo.com/", T0);
    expect(jar.header("https://consent.yahoo.com/", T0)).toBe("p=3");
    // The default path is the directory of the address that set it.
    jar.keep(["d=1"], "https://consent.yahoo.com/a/b", T0);
    expect(jar.header("https://consent.yahoo.com/a/c", T0)).toBe("d=1; p=3");
    expect(jar.header("https://consent.yahoo.com/b", T0)).toBe("p=3");
  });
});

describe("the consent form's hidden fields", () => {
  it("are read in order, with their character references decoded, other inputs left out", () => {
    const html =
      '<form><input data-name="x" type="hidden" name="csrfToken" value="Xj&#x4A;f"><input type="text" name="q" value="no">' +
      '<input name="originalDoneUrl" type="hidden" value="https://finance.yahoo.com/quote/AAPL?a=1&amp;guccounter=1">' +
      '<input type="hidden" name="namespace" value="yahoo"></form>';
    expect(hiddenFields(html)).toEqual([
      ["csrfToken", "XjJf"],
      ["originalDoneUrl", "https://finance.yahoo.com/quote/AAPL?a=1&guccounter=1"],
      ["namespace", "yahoo"],
    ]);
  });
});

describe("fundamentals-timeseries requests", () => {
  it("ask for each module's items exactly as the recorded real requests did", () => {
    const dir = "test/fixtures/recorded/delayed_provider";
    const files = readdirSync(dir).filter((f) => f.startsWith("fundamentalsTimeSeries-"));
    expect(files.length).toBe(6);
    for (const file of files) {
      const { request } = JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as { request: { url: string } };
      const [, module, type] = /AAPL-(financials|balance-sheet|cash-flow)-(annual|quarterly)\.json$/.exec(file) ?? [];
      const items = TIMESERIES_ITEMS[module as keyof typeof TIMESERIES_ITEMS];
      expect(new URL(request.url).searchParams.get("type"), file).toBe(items.map((i) => `${type}${i}`).join(","));
    }
    expect(Object.values(TIMESERIES_ITEMS).map((items) => items.length)).toEqual([142, 195, 147]);
  });
});

describe("the delayed provider's session against the simulator", () => {
  let sim: YahooSim;
  const clock = pinnedClock(TODAY);
  const fault = (body: unknown) => fetch(`${sim.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify(body) });
  const requests = async () => (await (await fetch(`${sim.url}/__sandbox/requests`)).json()) as Record<string, number>;

  beforeAll(async () => {
    sim = await startYahooSim({ clock });
  });
  afterAll(() => sim.close());

  it("goes through the EU consent pages when the quote page sends it there, then reads quoteSummary", async () => {
    await fault({ symbol: "AAPL", mode: "consent", times: 1 });
    const client = new DelayedFundamentalsClient({ baseUrl: sim.url, timeoutMs: 2000, clock });
    const { value, drifts } = await client.summary("MC.PA", ["price"]);
    expect((value.price as { currency?: string }).currency).toBe("EUR");
    expect(drifts).toEqual([]);
    const counts = await requests();
    expect(counts["consent agreed"]).toBe(1);
    // The first page visit and the one after the consent; then one crumb.
    expect([counts["quote page"], counts.getcrumb, counts["quoteSummary MC.PA"]]).toEqual([2, 1, 1]);
    // The session is kept for the isolate: another request's client opens none.
    const next = new DelayedFundamentalsClient({ baseUrl: sim.url, timeoutMs: 2000, clock });
    await next.summary("MC.PA", ["price"]);
    const after = await requests();
    expect([after["consent agreed"], after["quote page"], after.getcrumb, after["quoteSummary MC.PA"]]).toEqual([
      1, 2, 1, 2,
    ]);
  });

  it("opens one session for a request's calls made at once", async () => {
    const fresh = await startYahooSim({ clock });
    try {
      const client = new DelayedFundamentalsClient({ baseUrl: fresh.url, timeoutMs: 2000, clock });
      await Promise.all([client.summary("MC.PA", ["price"]), client.summary("AAPL", ["price"])]);
      const counts = (await (await fetch(`${fresh.url}/__sandbox/requests`)).json()) as Record<string, number>;
      expect([counts["quote page"], counts.getcrumb]).toEqual([1, 1]);
    } finally {
      await fresh.close();
    }
  });

  it("opens a new session once when the crumb is refused, and fails as a refused session the second time", async () => {
    await fault({ symbol: "MC.PA", mode: "crumb", times: 1 });
    const client = new DelayedFundamentalsClient({ baseUrl: sim.url, timeoutMs: 2000, clock });
    const before = (await requests()).getcrumb ?? 0;
    const ok = await client.summary("MC.PA", ["price"]);
    expect((ok.value.price as { currency?: string }).currency).toBe("EUR");
    // The refused session was replaced: one new crumb.
    expect((await requests()).getcrumb).toBe(before + 1);
    await fault({ symbol: "MC.PA", mode: "crumb", times: 2 });
    const err = await client.summary("MC.PA", ["price"]).catch((e: unknown) => e);
    expect((await requests()).getcrumb).toBe(before + 2);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).detail).toBe("session refused (Invalid Crumb)");
    expect((err as ProviderError).failure).toBe("unavailable");
  });

  it("turns the provider's 404 envelope into not_found with its own words", async () => {
    const client = new DelayedFundamentalsClient({ baseUrl: sim.url, timeoutMs: 2000, clock });
    const err = await client.summary("NOPE.XX", ["price"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect([(err as ProviderError).failure, (err as ProviderError).detail]).toEqual([
      "not_found",
      "Quote not found for symbol: NOPE.XX",
    ]);
  });
});
