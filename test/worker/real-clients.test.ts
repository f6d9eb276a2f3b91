import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { WORKSPACE_ORIGINS } from "../../src/domain/workspace/origins";
import { DOCS_SCRIPT_PATH } from "../../src/routes/docs";
import type { ErrorBody } from "../../src/routes/openapi";
import { BoolParam } from "../../src/routes/params";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** What real clients send: Python's booleans, the workspace's other origins, a browser with no network. */

describe("booleans as clients write them", () => {
  it.each([
    ["/health/alerts?include_resolved=True", "/health/alerts?include_resolved=true"],
    ["/health/alerts?include_resolved=FALSE", "/health/alerts?include_resolved=false"],
    ["/health/alerts?include_resolved=yes", "/health/alerts?include_resolved=1"],
    ["/workspace/eod?ticker=MC.PA&raw=TRUE", "/workspace/eod?ticker=MC.PA&raw=true"],
    ["/fundamental?ticker=MC.PA&nocache=True", "/fundamental?ticker=MC.PA&nocache=true"],
    ["/workspace/dcf?ticker=MC.PA&force_refresh=False", "/workspace/dcf?ticker=MC.PA&force_refresh=false"],
  ])("%s answers as %s", async (written, canonical) => {
    const a = await call<unknown>(written, { key: READ_ONLY_KEY });
    const b = await call<unknown>(canonical, { key: READ_ONLY_KEY });
    expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(200);
    expect(b.status).toBe(200);
  });

  it.each([
    ["True", true],
    ["TRUE", true],
    ["yes", true],
    ["1", true],
    ["False", false],
    ["NO", false],
    ["0", false],
  ])("reads %s as %s", (written, value) => {
    expect(BoolParam.parse(written)).toBe(value);
  });

  it("reads a missing boolean as false, and raw=True draws no figure but its rows", async () => {
    expect(BoolParam.parse(undefined)).toBe(false);
    const rows = await call<unknown>("/workspace/eod?ticker=MC.PA&raw=True", { key: READ_ONLY_KEY });
    const figure = await call<unknown>("/workspace/eod?ticker=MC.PA&raw=False", { key: READ_ONLY_KEY });
    expect(Array.isArray(rows.body)).toBe(true);
    expect(figure.body).toHaveProperty("data");
  });

  it("refuses anything else with a 400 naming the parameter and the accepted values", async () => {
    const res = await call<ErrorBody>("/workspace/dcf?ticker=MC.PA&force_refresh=maybe", { key: READ_ONLY_KEY });
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    expect(text).toContain("force_refresh");
    expect(text).toContain("expected a boolean: one of true, 1, yes, false, 0, no (any letter case)");
  });
});

describe("the workspace's origins, with no setting", () => {
  it.each(WORKSPACE_ORIGINS.map((o) => [o]))("a preflight from %s is allowed", async (origin) => {
    const res = await exports.default.fetch(
      new Request("http://svc/workspace/quote?ticker=AAPL", {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "x-api-key",
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it("names the four the workspace documents", () => {
    expect([...WORKSPACE_ORIGINS].sort()).toEqual([
      "http://localhost:1420",
      "https://excel.openbb.co",
      "https://pro.openbb.co",
      "https://pro.openbb.dev",
    ]);
  });

  it("a setting replaces the list: its origin allowed, the defaults no longer", async () => {
    const narrowed = { ...env, WORKSPACE_ALLOWED_ORIGIN: "https://mine.example" };
    const from = async (origin: string) => {
      const ctx = createExecutionContext();
      const res = await createApp().fetch(
        new Request("http://svc/widgets.json", { headers: { Origin: origin } }),
        narrowed,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res.headers.get("access-control-allow-origin");
    };
    expect(await from("https://mine.example")).toBe("https://mine.example");
    expect(await from("https://pro.openbb.co")).toBeNull();
    // Without the setting (the suite's bindings), the defaults hold and the other origin gets nothing.
    const other = await exports.default.fetch(
      new Request("http://svc/widgets.json", { headers: { Origin: "https://mine.example" } }),
    );
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("/docs with no network", () => {
  it("loads its script from the service itself, and nothing from elsewhere", async () => {
    const res = await exports.default.fetch(new Request("http://svc/docs"));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<script src="${DOCS_SCRIPT_PATH}"></script>`);
    // No script, style or font from another host: every src and href is the service's own.
    const external = [...html.matchAll(/(?:src|href)="(https?:)?\/\/[^"]*"/g)].map((m) => m[0]);
    expect(external).toEqual([]);
    // A Content-Security-Policy that lets in the service's own script and the page's one inline script (by hash).
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    const inline = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(inline)));
    expect(policy).toContain(`script-src 'self' 'sha256-${btoa(String.fromCharCode(...hash))}'`);
  });

  it("serves that script through the docs Worker, and an unknown file as a JSON 404", async () => {
    const script = await exports.default.fetch(new Request(`http://svc${DOCS_SCRIPT_PATH}`));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    // The installed @scalar/api-reference's browser bundle, byte for byte (a few megabytes).
    const body = await script.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain("api-reference");
    const missing = await exports.default.fetch(new Request("http://svc/docs/assets/nothing.js"));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorBody).message).toBe("No docs file at /docs/assets/nothing.js");
  });

  it("serves the realtime example page and its files through the docs Worker, under a policy of its own", async () => {
    const page = await exports.default.fetch(new Request("http://svc/examples/realtime"));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<script src="/examples/realtime.js" defer></script>');
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const script = await exports.default.fetch(new Request("http://svc/examples/realtime.js"));
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('fetch("/realtime/ticket"');
    expect((await exports.default.fetch(new Request("http://svc/examples/nothing.js"))).status).toBe(404);
  });
});
