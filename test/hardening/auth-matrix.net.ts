import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Access } from "../../src/auth";
import { MISSING_KEY_MESSAGE } from "../../src/middleware/authenticate";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
import { documentedOperations, type Operation } from "./openapi";

/** The spec's public routes and its routes that need a full-access key (Authentication 3, 5), as written there. */
const SPEC_PUBLIC = ["GET /health", "GET /widgets.json", "GET /apps.json"];
const SPEC_FULL = [
  "POST /health/alerts/:alert_id/resolve",
  "POST /health/canary/run",
  "POST /cache/clear",
  "POST /cache/clear/:ticker",
  "POST /database/cleanup",
  "POST /realtime/subscribe",
  "DELETE /realtime/subscribe/:ticker",
  "POST /news/:ticker/refresh",
];

/** The ways a client may present (or fail to present) a key, and the kind of key each amounts to. */
const CREDENTIALS: {
  name: string;
  headers: Record<string, string>;
  /** A query string the request carries (the key of a GET, for clients that cannot set headers). */
  query?: string;
  is: "none" | "unknown" | "read_only" | "full" | "full_in_url";
}[] = [
  { name: "no key", headers: {}, is: "none" },
  { name: "unknown key", headers: { "X-API-KEY": "not-a-key" }, is: "unknown" },
  { name: "read-only key", headers: { "X-API-KEY": READ_ONLY_KEY }, is: "read_only" },
  { name: "full key", headers: { "X-API-KEY": FULL_KEY }, is: "full" },
  { name: "Bearer full key", headers: { Authorization: `Bearer ${FULL_KEY}` }, is: "full" },
  { name: "Bearer read-only key", headers: { Authorization: `Bearer ${READ_ONLY_KEY}` }, is: "read_only" },
  {
    name: "lower-case bearer scheme with a full key",
    headers: { authorization: `bearer ${FULL_KEY}` },
    is: "full",
  },
  { name: "lower-case bearer scheme", headers: { authorization: `bearer ${READ_ONLY_KEY}` }, is: "read_only" },
  // Only the Bearer scheme carries a key; a key in the URL is never read by an HTTP route (it would end up in logs).
  { name: "bare Authorization", headers: { Authorization: FULL_KEY }, is: "none" },
  { name: "Basic scheme", headers: { Authorization: `Basic ${btoa(`${FULL_KEY}:`)}` }, is: "none" },
  // The WebSocket's query names: never read by an HTTP route.
  {
    name: "key in the query string",
    headers: {},
    query: `api_key=${FULL_KEY}&token=${FULL_KEY}&key=${FULL_KEY}`,
    is: "none",
  },
  // api_token: a read-only key in a GET's query (for spreadsheets); a full-access key there is refused.
  { name: "read-only key as api_token", headers: {}, query: `api_token=${READ_ONLY_KEY}`, is: "read_only" },
  { name: "full key as api_token", headers: {}, query: `api_token=${FULL_KEY}`, is: "full_in_url" },
];

/** A request that reaches the route: path parameters from the document's examples, an invalid body for writes. */
function sampleRequest(op: Operation, headers: Record<string, string>, query: string | undefined): Request {
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const example = op.parameters.find((p) => p.name === name)?.schema.example;
    return encodeURIComponent(String(example ?? "x"));
  });
  // A body that fails validation: a full-access key gets its 400 on the routes that read a body; the
  // writes without one (cache clears, DELETE of an unstreamed ticker) run, harmlessly, here.
  const body = op.method === "GET" ? undefined : "{";
  const url = `http://svc${path}${query ? `?${query}` : ""}`;
  return new Request(url, { method: op.method, headers: { "content-type": "application/json", ...headers }, body });
}

type Credential = (typeof CREDENTIALS)[number];

/** Routes any key may call that refuse some requests of a key with 403 themselves. */
const ROUTES_WITH_THEIR_OWN_403 = new Set(["GET /usage"]);

/** What a credential gets on a route; a key in a query counts only on a GET (api_token), none elsewhere. */
function expected(access: Access, method: string, cred: Credential): "pass" | 401 | 403 {
  if (access === "public") return "pass";
  const keyless = cred.query !== undefined && method !== "GET";
  if (keyless || cred.is === "none" || cred.is === "unknown" || cred.is === "full_in_url") return 401;
  if ((access === "full" || access === "admin") && cred.is === "read_only") return 403;
  return "pass";
}

/** The 401 message a credential gets. */
function refusal(method: string, cred: Credential): string {
  if (cred.is === "unknown") return "Unknown API key";
  if (cred.is === "full_in_url" && method === "GET")
    return "A full-access key is never taken from the URL (api_token): send it as X-API-KEY or Authorization: Bearer <key>, and revoke it if the URL was shared";
  return MISSING_KEY_MESSAGE;
}

describe("the auth matrix: every documented operation × every way of sending a key", async () => {
  const ops = await documentedOperations();

  const accessOf = (route: string) => ops.find((o) => `${o.method} ${o.honoPath}` === route)?.access;

  it("finds who may call each documented operation in its definition (a new route must decide it there)", () => {
    const missing = ops.filter((o) => o.access === undefined).map((o) => `${o.method} ${o.template}`);
    expect(missing).toEqual([]);
    expect(ops.length).toBeGreaterThan(20);
  });

  it("agrees with the spec: its public routes are public, its write routes need a full-access key", () => {
    for (const r of SPEC_PUBLIC) expect(accessOf(r), r).toBe("public");
    for (const r of SPEC_FULL) expect(accessOf(r), r).toBe("full");
    // Beyond the spec: POST /historical/ingest writes, so it needs a full-access key too.
    expect(accessOf("POST /historical/ingest")).toBe("full");
  });

  it.each(ops.map((o) => [`${o.method} ${o.template}`, o] as const))("%s", async (_name, op) => {
    const access = op.access ?? "full";
    // The document says the same: security and 401 only on keyed routes, 403 only on full-access ones.
    expect(op.security === undefined, "documented as public").toBe(access === "public");
    expect(op.responses.includes("401"), "documents 401").toBe(access !== "public");
    // A 403 of its own (GET /usage: another key's usage) is the route's, not the access table's.
    const ownForbidden = ROUTES_WITH_THEIR_OWN_403.has(`${op.method} ${op.template}`);
    expect(op.responses.includes("403"), "documents 403").toBe(access === "full" || access === "admin" || ownForbidden);
    for (const cred of CREDENTIALS) {
      const res = await exports.default.fetch(sampleRequest(op, cred.headers, cred.query));
      const body = (await res.json()) as { error?: string; message?: string };
      const want = expected(access, op.method, cred);
      const where = `${op.method} ${op.template} with ${cred.name}: ${res.status} ${JSON.stringify(body)}`;
      if (want === "pass") {
        expect([401, 403, 429], where).not.toContain(res.status);
        expect(res.status, where).toBeLessThan(500);
      } else if (want === 401) {
        expect(res.status, where).toBe(401);
        const message = refusal(op.method, cred);
        // The workspace's routes repeat the message as `detail`, where the workspace shows it.
        const detail = op.template.startsWith("/workspace/") ? { detail: message } : {};
        expect(body, where).toEqual({ error: "Unauthorized", message, ...detail });
      } else {
        expect(res.status, where).toBe(403);
        expect(body.error, where).toBe("Forbidden");
      }
    }
  });
});

/** The WebSocket's ways of sending a key, and what each must get on a ticker that is not streamed. */
const SOCKET_CREDENTIALS: {
  name: string;
  headers: Record<string, string>;
  query: string;
  closes: { code: number; reason: string };
}[] = [
  { name: "no key", headers: {}, query: "", closes: { code: 1008, reason: "missing or unknown API key" } },
  {
    name: "unknown key",
    headers: { "X-API-KEY": "not-a-key" },
    query: "",
    closes: { code: 1008, reason: "missing or unknown API key" },
  },
  {
    name: "Basic scheme",
    headers: { Authorization: `Basic ${btoa(`${FULL_KEY}:`)}` },
    query: "",
    closes: { code: 1008, reason: "missing or unknown API key" },
  },
  // A read-only key joins what is streamed: here nothing, so not_streaming and a normal close.
  {
    name: "read-only key",
    headers: { "X-API-KEY": READ_ONLY_KEY },
    query: "",
    closes: { code: 1000, reason: "not streamed" },
  },
  {
    name: "Bearer read-only key",
    headers: { Authorization: `Bearer ${READ_ONLY_KEY}` },
    query: "",
    closes: { code: 1000, reason: "not streamed" },
  },
  ...["token", "api_key", "key"].map((name) => ({
    name: `read-only key as ${name}`,
    headers: {},
    query: `${name}=${READ_ONLY_KEY}`,
    closes: { code: 1000, reason: "not streamed" },
  })),
  // A full-access key is not taken from the URL (WS_FULL_ACCESS_KEY_IN_URL is off).
  ...["token", "api_key", "key"].map((name) => ({
    name: `full key as ${name}`,
    headers: {},
    query: `${name}=${FULL_KEY}`,
    closes: {
      code: 1008,
      reason: "a full-access key is not taken from the URL: send it as a header, or use a read-only key",
    },
  })),
];

describe("the auth matrix of WS /ws/realtime/{ticker}: every way of sending a key", () => {
  it.each(SOCKET_CREDENTIALS.map((c) => [c.name, c] as const))("%s", async (_name, cred) => {
    // A ticker nobody streams (the key is checked before it is read).
    const res = await exports.default.fetch(`http://svc/ws/realtime/NOSTREAM${cred.query ? `?${cred.query}` : ""}`, {
      headers: { Upgrade: "websocket", ...cred.headers },
    });
    const ws = (res as Response & { webSocket: WebSocket | null }).webSocket;
    expect(res.status).toBe(101);
    const first = new Promise<string | null>((resolve) => {
      ws?.addEventListener("message", (ev) => resolve(String(ev.data)));
      ws?.addEventListener("close", () => resolve(null));
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws?.addEventListener("close", (ev) => resolve({ code: ev.code, reason: ev.reason })),
    );
    (ws as WebSocket & { accept(): void }).accept();
    expect(await closed).toEqual(cred.closes);
    const message = await first;
    if (cred.closes.code === 1000)
      expect(JSON.parse(message ?? "{}")).toMatchObject({ type: "not_streaming", ticker: "NOSTREAM" });
    else expect(message).toBeNull();
  });

  it("answers a plain GET (no upgrade) with 426, with or without a key", async () => {
    const variants: Record<string, string>[] = [{}, { "X-API-KEY": FULL_KEY }];
    for (const headers of variants) {
      const res = await exports.default.fetch("http://svc/ws/realtime/AAPL", { headers });
      expect(res.status).toBe(426);
      await res.arrayBuffer();
    }
  });
});
