import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { pinnedClock } from "../../src/clock";
import { contractProblem } from "./contract";
import { FULL_KEY } from "./keys";

export interface CallOptions {
  method?: string;
  key?: string | null;
  bearer?: boolean;
  body?: unknown;
  /** Pins the service's clock at this date (YYYY-MM-DD, 15:00 UTC) or instant: the app is built with it. */
  at?: string;
  /** The request's deadline instead of REQUEST_DEADLINE_MS. */
  deadlineMs?: number;
  /** Settings that replace the test bindings for this call (e.g. a broken one). */
  env?: Record<string, unknown>;
  /** Return only once the request's background work (waitUntil) has settled. */
  settleBackground?: boolean;
  /** A body sent as written (a malformed one, say) instead of `body` as JSON. */
  rawBody?: string;
  /** The request's content type; application/json when a body is sent. */
  contentType?: string;
}

/** What a call answered: the JSON body as the route sent it (checked against its schema), else the text. */
export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

const apps = new Map<string, ReturnType<typeof createApp>>();

/**
 * The Worker's fetch, or the same app built with a pinned clock, another deadline or other settings
 * (the production code path but for what the test names).
 */
async function fetchWith(request: Request, opts: CallOptions): Promise<Response> {
  if (opts.at === undefined && opts.deadlineMs === undefined && opts.env === undefined && !opts.settleBackground) {
    return exports.default.fetch(request);
  }
  const id = `${opts.at}|${opts.deadlineMs}`;
  let app = apps.get(id);
  if (!app) {
    app = createApp({ clock: opts.at === undefined ? undefined : pinnedClock(opts.at), deadlineMs: opts.deadlineMs });
    apps.set(id, app);
  }
  const ctx = createExecutionContext();
  // A fresh env object when settings change: the config is parsed once per env object.
  const bindings = opts.env ? { ...env, ...opts.env } : env;
  const res = await app.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * Calls the Worker under test; `key` defaults to a full-access key, `null` sends none. The answer is
 * checked against the route's own response schema (see contractProblem), so `T` names that schema's
 * type (`call<EodAnswer>`, `call<ErrorBody>` for an error); the body is returned as sent, not as zod
 * parsed it (which would drop keys). A body that is not JSON is its text.
 */
export async function call<T = unknown>(path: string, opts: CallOptions = {}): Promise<Answer<T>> {
  const headers = new Headers();
  const key = opts.key === undefined ? FULL_KEY : opts.key;
  if (key !== null) headers.set(opts.bearer ? "authorization" : "x-api-key", opts.bearer ? `Bearer ${key}` : key);
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined) headers.set("content-type", opts.contentType ?? "application/json");
  const method = opts.method ?? "GET";
  const request = new Request(`http://svc${path}`, { method, headers, body });
  const res = await fetchWith(request, opts);
  const text = await res.text();
  const contentType = res.headers.get("content-type") ?? "";
  const json: unknown = contentType.includes("json") ? JSON.parse(text) : undefined;
  const problem = contractProblem(method, new URL(request.url).pathname, res.status, contentType, json);
  if (problem) throw new Error(`contract: ${method} ${path} ${problem}`);
  // T is the caller's word for the body, which the check above holds to the route's schema.
  return { status: res.status, body: (json === undefined ? text : json) as T, headers: res.headers };
}
