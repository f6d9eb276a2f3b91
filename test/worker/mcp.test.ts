import { env, exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageLogs } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { MCP_ANSWER_BYTES } from "../../src/domain/mcp-contract";
import { documentedOperations, type Operation } from "../hardening/openapi";
import { comparable, exampleRequest, send } from "../hardening/requests";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
import { resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/** An SDK client on /mcp of the Worker under test, with a key (or none). */
async function connect(key: string | null): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://svc/mcp"), {
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
}

interface ToolOp {
  tool: string;
  op: Operation;
}

/** The documented operations that are tools, by the tool's name (`x-mcp-tool`). */
async function toolOperations(): Promise<ToolOp[]> {
  const doc = (await (await exports.default.fetch(new Request("http://svc/openapi.json"))).json()) as {
    paths: Record<string, Record<string, { "x-mcp-tool"?: string }>>;
  };
  const ops = await documentedOperations();
  const out: ToolOp[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tool = op["x-mcp-tool"];
      const found = ops.find((o) => o.template === template && o.method === method.toUpperCase());
      if (tool && found) out.push({ tool, op: found });
    }
  }
  return out;
}

/** A tool's arguments from the operation's documented example request: path and query at the top, the body under `body`. */
function exampleArguments(op: Operation): { args: Record<string, unknown>; path: string; init: RequestInit } {
  const example = exampleRequest(op);
  const url = new URL(`http://svc${example.path}`);
  const args: Record<string, unknown> = {};
  const names = [...op.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
  const values = new RegExp(`^${op.template.replace(/\{\w+\}/g, "([^/]+)")}$`).exec(url.pathname)?.slice(1) ?? [];
  names.forEach((n, i) => {
    args[n] = decodeURIComponent(values[i] ?? "");
  });
  for (const [k, v] of url.searchParams) args[k] = v;
  if (typeof example.init.body === "string") args.body = JSON.parse(example.init.body);
  return { args, path: example.path, init: example.init };
}

let full: Client;
let readOnly: Client;
let tools: ToolOp[];

beforeAll(async () => {
  full = await connect(FULL_KEY);
  readOnly = await connect(READ_ONLY_KEY);
  tools = await toolOperations();
});
afterAll(async () => {
  await full.close();
  await readOnly.close();
});

describe("/mcp with the official SDK's client", () => {
  it("initializes on the newest protocol version with tools, resources, prompts and completions", async () => {
    expect(full.getServerVersion()?.name).toBe("market-data-service");
    const caps = full.getServerCapabilities();
    expect(Object.keys(caps ?? {}).sort()).toEqual(["completions", "prompts", "resources", "tools"]);
    expect(full.getInstructions()).toContain("search_instruments");
    await expect(full.ping()).resolves.toEqual({});
  });

  it("refuses a request without a key, or with an unknown one, before any protocol (401)", async () => {
    const res = await exports.default.fetch(
      new Request("http://svc/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
    );
    expect(res.status).toBe(401);
    await expect(connect("not-a-key-0123456789abcdef0123456789")).rejects.toThrow(/Unknown API key/);
  });

  it("lists every tool of the document to a full-access key, and to a read-only key exactly those its routes allow", async () => {
    const listedFull = (await full.listTools()).tools.map((t) => t.name).sort();
    const listedRead = (await readOnly.listTools()).tools.map((t) => t.name).sort();
    expect(listedFull).toEqual(tools.map((t) => t.tool).sort());
    expect(listedRead).toEqual(
      tools
        .filter((t) => t.op.access !== "full")
        .map((t) => t.tool)
        .sort(),
    );
    expect(listedFull.filter((t) => !listedRead.includes(t)).sort()).toEqual(["add_instrument", "ingest_prices"]);
    for (const name of [
      "search_instruments",
      "get_instrument_by_isin",
      "get_eod_prices",
      "get_intraday_prices",
      "get_dividends",
      "get_splits",
      "get_indicator",
      "screen_instruments",
      "get_fundamentals",
      "get_fundamentals_deep",
      "get_dcf_valuation",
      "get_dcf_sensitivity",
      "get_risk_free_rate",
      "get_news",
      "get_quote",
      "list_exchanges",
      "get_exchange_calendar",
      "get_earnings_calendar",
    ]) {
      expect(listedRead).toContain(name);
    }
    // /docs renders the document, whose description lists every tool beside its route.
    const doc = (await (await exports.default.fetch(new Request("http://svc/openapi.json"))).json()) as {
      info: { description: string };
    };
    for (const { tool, op } of tools) {
      expect(doc.info.description).toContain(`| \`${tool}\` | \`${op.method} ${op.template}\` |`);
    }
    const eod = (await readOnly.listTools()).tools.find((t) => t.name === "get_eod_prices");
    expect(eod?.inputSchema.required).toEqual(["ticker"]);
    expect(Object.keys(eod?.inputSchema.properties ?? {})).not.toContain("fmt");
    expect(eod?.annotations?.readOnlyHint).toBe(true);
  });

  it("refuses a writing tool to a read-only key, as a protocol error, and the route is never called", async () => {
    await expect(
      readOnly.callTool({ name: "ingest_prices", arguments: { body: { tickers: ["AAPL"] } } }),
    ).rejects.toThrow(/ingest_prices changes data and needs a full-access key/);
    // No API request was made for it: its usage row is the message's (the counting test below).
    await expect(readOnly.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
      /Unknown tool: no_such_tool/,
    );
  });

  it("answers each tool with its route's own answer (the documented example, on the sandbox)", async () => {
    // The valuation tools' examples (MC.PA) read its whole deep enrichment: what earlier files left of
    // it (a part, with no refetch due) is cleared, and the whole is stored first.
    await resetTickers("MC.PA");
    expect((await send("/fundamental/deep?ticker=MC.PA", { headers: { "x-api-key": FULL_KEY } })).status).toBe(200);
    const added: string[] = [];
    for (const { tool, op } of tools) {
      if (op.precondition) await send(op.precondition, { headers: { "x-api-key": FULL_KEY } });
      const { args, path, init } = exampleArguments(op);
      // Over HTTP first (a write's example does its work there), then the tool, then HTTP again: the
      // tool's answer and the last one are read alike (both from the caches the first one filled).
      const first = await send(path, init);
      expect.soft(first.status, `${tool}: the route's example`).toBe(op.exampleStatus ?? 200);
      const result = await full.callTool({ name: tool, arguments: args });
      const http = await send(path, init);
      expect.soft(http.status, tool).toBeLessThan(300);
      expect.soft(result.isError ?? false, `${tool}: ${JSON.stringify(result.content).slice(0, 300)}`).toBe(false);
      const structured = { ...(result.structuredContent as Record<string, unknown>) };
      const cut = structured.cut as { list: string; returned: number } | undefined;
      delete structured.cut;
      const expected = Array.isArray(http.body) ? { items: http.body } : http.body;
      if (cut) {
        const rows = (v: unknown) =>
          cut.list.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], v);
        expect.soft(rows(comparable(structured)), tool).toEqual((rows(expected) as unknown[]).slice(0, cut.returned));
      } else {
        expect.soft(comparable(structured), tool).toEqual(expected);
      }
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
      expect.soft(text, tool).toMatch(new RegExp(`^${op.method} ${op.template.replace(/[{}]/g, "\\$&")}: `));
      if (tool === "add_instrument") added.push(String((args.body as { isin?: string }).isin ?? ""));
    }
    for (const isin of added.filter(Boolean)) {
      await send(`/assets/${isin}`, { method: "DELETE", headers: { "x-api-key": FULL_KEY } });
    }
  }, 240_000);

  /** Cuts a long answer, then follows its `next_arguments`: the rows that follow are the route's next ones. */
  async function followCut(args: Record<string, string>) {
    const { ticker, ...query } = args;
    const http = await send(`/eod/${ticker}?${new URLSearchParams(query)}`, { headers: { "x-api-key": FULL_KEY } });
    const all = (http.body as { data: { Date: string }[] }).data;
    const first = await full.callTool({ name: "get_eod_prices", arguments: args });
    const body = first.structuredContent as Record<string, unknown>;
    const cut = body.cut as { list: string; returned: number; total: number; next_arguments: Record<string, string> };
    // The whole answer, `cut` included, within the budget.
    expect(new TextEncoder().encode(JSON.stringify(body)).length).toBeLessThanOrEqual(MCP_ANSWER_BYTES);
    expect(cut.list).toBe("data");
    expect(cut.total).toBe(all.length);
    expect(cut.returned).toBeGreaterThan(50);
    expect(cut.returned).toBeLessThan(cut.total);
    const rows = body.data as { Date: string }[];
    expect(rows.map((r) => r.Date)).toEqual(all.slice(0, cut.returned).map((r) => r.Date));
    const last = rows[rows.length - 1]?.Date ?? "";
    const next = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const text = (first.content as { text: string }[])[0]?.text ?? "";
    expect(text).toContain(`Cut: ${cut.returned} of ${cut.total} rows of data`);
    const second = await full.callTool({ name: "get_eod_prices", arguments: cut.next_arguments });
    expect(second.isError ?? false, JSON.stringify(second.content)).toBe(false);
    const rest = (second.structuredContent as { data: { Date: string }[] }).data;
    expect(rest[0]?.Date).toBe(all[cut.returned]?.Date);
    return { cut, next, end: all[all.length - 1]?.Date };
  }

  it("cuts an answer past the budget and says how to ask for the rest; the next call continues where it stopped", async () => {
    const args = { ticker: "AAPL", from: "2016-01-04", to: "2025-12-31", period: "daily" };
    const { cut, next, end } = await followCut(args);
    expect(cut.next_arguments).toEqual({ ...args, from: next, to: end });
  });

  it("continues an answer asked by period with the window of dates that follows (the period left out)", async () => {
    const { cut, next, end } = await followCut({ ticker: "AAPL", period: "10y" });
    expect(cut.next_arguments).toEqual({ ticker: "AAPL", from: next, to: end });
  });

  it("refuses a dot segment for a path parameter: it would answer another route", async () => {
    const dots = await full.callTool({ name: "get_dcf_valuation", arguments: { ticker: ".." } });
    expect(dots.isError).toBe(true);
    expect((dots.content as { text: string }[])[0]?.text).toBe("ticker: not a value of it");
  });

  it("says a route's refusal as a tool error the model can act on", async () => {
    const bad = await readOnly.callTool({ name: "get_eod_prices", arguments: { ticker: "AAPL", period: "7y" } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toMatch(/^400 /);
    expect((bad.structuredContent as { status: number }).status).toBe(400);
    const unknownArg = await readOnly.callTool({ name: "get_quote", arguments: { ticker: "AAPL", colour: "red" } });
    expect(unknownArg.isError).toBe(true);
    expect((unknownArg.content as { text: string }[])[0]?.text).toBe(
      "get_quote takes no colour; its arguments are ticker, subscribe_if_missing, convert",
    );
  });

  it("serves the resources, the valuation prompt and ticker completion", async () => {
    const { resources } = await readOnly.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["market://indicators", "market://exchanges"]);
    const { resourceTemplates } = await readOnly.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "market://instruments/{isin}",
      "market://exchanges/{code}",
    ]);
    const instrument = await readOnly.readResource({ uri: "market://instruments/US0378331005" });
    const http = await send("/assets/by-isin/US0378331005", { headers: { "x-api-key": READ_ONLY_KEY } });
    expect(comparable(JSON.parse((instrument.contents[0] as { text: string }).text))).toEqual(http.body);
    await expect(readOnly.readResource({ uri: "market://instruments/XX0000000000" })).rejects.toThrow(
      /XX0000000000 is no ISIN/,
    );
    await expect(readOnly.readResource({ uri: "market://nothing" })).rejects.toThrow(/Resource not found/);
    const indicators = await readOnly.readResource({ uri: "market://indicators" });
    expect((indicators.contents[0] as { text: string }).text).toContain("rsi");

    const { prompts } = await readOnly.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["value_company"]);
    const prompt = await readOnly.getPrompt({ name: "value_company", arguments: { ticker: "asml.as" } });
    expect((prompt.messages[0]?.content as { text?: string } | undefined)?.text).toContain(
      "get_dcf_valuation (ticker=ASML.AS)",
    );
    await expect(readOnly.getPrompt({ name: "value_company", arguments: {} })).rejects.toThrow(/needs a ticker/);

    const done = await readOnly.complete({
      ref: { type: "ref/prompt", name: "value_company" },
      argument: { name: "ticker", value: "apple" },
    });
    expect(done.completion.values).toContain("AAPL");
  });
});

describe("/mcp counting", () => {
  it("counts each message once against the key's rate, and a tool call in usage under its route only", async () => {
    const created = await call<{ id: string; key: string }>("/keys", {
      method: "POST",
      body: { name: "mcp-count", kind: "read_only", rate_limit: 10 },
    });
    expect(created.status).toBe(200);
    /** One POST of a message (or, as given, of a batch) on the new key. */
    const post = (message: Record<string, unknown> | Record<string, unknown>[]) =>
      exports.default.fetch(
        new Request("http://svc/mcp", {
          method: "POST",
          headers: {
            "x-api-key": created.body.key,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify(Array.isArray(message) ? message : { jsonrpc: "2.0", id: 1, ...message }),
        }),
      );
    const ping = await post({ method: "ping" });
    expect(ping.status).toBe(200);
    expect(ping.headers.get("ratelimit-remaining")).toBe("9");
    const quote = await post({ method: "tools/call", params: { name: "get_quote", arguments: { ticker: "AAPL" } } });
    expect(quote.status).toBe(200);
    expect(quote.headers.get("ratelimit-remaining")).toBe("8");
    const answer = (await quote.json()) as { result: { structuredContent: { ticker: string } } };
    expect(answer.result.structuredContent.ticker).toBe("AAPL");
    // A writing tool refused (no API request), a route's refusal, and a batch: each one count.
    const refused = await post({ method: "tools/call", params: { name: "ingest_prices", arguments: {} } });
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const bad = await post({
      method: "tools/call",
      params: { name: "get_eod_prices", arguments: { ticker: "AAPL", period: "7y" } },
    });
    expect(((await bad.json()) as { result: { isError: boolean } }).result.isError).toBe(true);
    const batch = await post([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(batch.headers.get("ratelimit-remaining")).toBe("5");

    const deps = buildDeps(env);
    try {
      const routes = async () =>
        (
          await deps.db
            .select({ route: usageLogs.route, method: usageLogs.method, status: usageLogs.status })
            .from(usageLogs)
            .where(eq(usageLogs.keyId, created.body.id))
        ).sort((a, b) => a.route.localeCompare(b.route));
      // The queue delivers a batch within its max_batch_timeout (2 s).
      await expect.poll(async () => (await routes()).length, { timeout: 10_000, interval: 200 }).toBe(5);
      expect(await routes()).toEqual([
        { route: "/eod/:ticker", method: "GET", status: 400 },
        { route: "/mcp", method: "POST", status: 200 },
        { route: "/mcp", method: "POST", status: 200 },
        { route: "/mcp", method: "POST", status: 400 },
        { route: "/quote/:ticker", method: "GET", status: 200 },
      ]);
    } finally {
      await deps.close();
    }
  });
});
