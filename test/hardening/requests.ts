import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { FULL_KEY } from "../helpers/keys";
import type { Operation } from "./openapi";

/**
 * The generated nets' requests: an operation's documented example, sent to the Worker's own handler
 * with its background work awaited, and the answer made comparable between two runs.
 */

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * The operation's documented example request: path parameters and required query parameters from
 * their examples, plus the operation's `x-example-query`, and the body schema's example; the tickers
 * it touches (those named, and its `x-touches`) are what the reset puts back.
 */
export function exampleRequest(op: Operation): { path: string; init: RequestInit; tickers: string[] } {
  const tickers: string[] = [...op.touches];
  const value = (name: string) => {
    const p = op.parameters.find((x) => x.name === name);
    const v = p?.schema.example ?? p?.schema.default;
    if (v === undefined) throw new Error(`${op.method} ${op.template}: document an example for ${name}`);
    if (/ticker|symbol|isin/.test(name)) tickers.push(String(v));
    return String(v);
  };
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
  const query = new URLSearchParams(op.exampleQuery);
  for (const [k, v] of query) if (/ticker|symbol|isin/.test(k)) tickers.push(v);
  for (const p of op.parameters.filter((x) => x.in === "query" && x.required)) query.set(p.name, value(p.name));
  let body: string | undefined;
  if (op.body) {
    const example = op.body.example;
    if (example === undefined) throw new Error(`${op.method} ${op.template}: document an example body`);
    for (const [k, v] of Object.entries(example as Record<string, unknown>)) {
      if (/ticker/.test(k)) tickers.push(...(Array.isArray(v) ? v.map(String) : [String(v)]));
    }
    body = JSON.stringify(example);
  }
  const q = query.toString();
  return {
    path: `${path}${q ? `?${q}` : ""}`,
    init: { method: op.method, headers: { "x-api-key": FULL_KEY, "content-type": "application/json" }, body },
    tickers,
  };
}

const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
/**
 * What is drawn at random by design: a managed key (`mds_…`, or its first characters), its id
 * (`key_…`), a realtime ticket (`tkt_…`, single-use: each request gets its own).
 */
const RANDOM = /\b(mds_[0-9a-f]{4,40}|key_[0-9a-f]{16}|tkt_[0-9a-f]{48})\b/g;

/**
 * An answer without what differs between two identical requests: the instants they were served at,
 * and what is drawn at random (a new key, a ticket).
 */
export function comparable(value: unknown): unknown {
  if (typeof value === "string" && INSTANT.test(value)) return "<instant>";
  if (typeof value === "string") return value.replace(RANDOM, "<random>");
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, /(_at|^timestamp|^ts)$/.test(k) ? "<instant>" : comparable(v)]),
    );
  }
  return value;
}

/**
 * One request to the Worker: its own handler, called with an execution context of the test's, and
 * the answer returned once the request's background work (`waitUntil`: an `x-background`
 * operation's work, a read's deferred caching or quote) is done, so the snapshot after it is the
 * request's whole effect. (Snapshots taken until two agree were not enough: on a busy machine a
 * canary run fetched its references for longer than the interval between two snapshots.)
 */
export async function send(path: string, init: RequestInit): Promise<Answer> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://svc${path}`, init), env, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return {
    status: res.status,
    body: comparable(res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text),
  };
}
