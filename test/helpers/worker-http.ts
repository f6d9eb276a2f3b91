import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { pinnedClock } from "../../src/clock";
import { FULL_KEY } from "./keys";

/**
 * A response body as the tests read it, loosely: the one place `any` is allowed (a typed call<T>()
 * that parses bodies with the route's own response schema is the next step).
 */
// biome-ignore lint/suspicious/noExplicitAny: the one loosely typed body of the test suite, see above
type JsonBody = any;

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
  env?: Record<string, string>;
  /** Return only once the request's background work (waitUntil) has settled. */
  settleBackground?: boolean;
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

/** Calls the Worker under test; `key` defaults to a full-access key, `null` sends none. */
export async function call(
  path: string,
  opts: CallOptions = {},
): Promise<{ status: number; body: JsonBody; headers: Headers }> {
  const headers = new Headers();
  const key = opts.key === undefined ? FULL_KEY : opts.key;
  if (key !== null) headers.set(opts.bearer ? "authorization" : "x-api-key", opts.bearer ? `Bearer ${key}` : key);
  if (opts.body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`http://svc${path}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const res = await fetchWith(request, opts);
  const text = await res.text();
  let body: JsonBody = text;
  if ((res.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
  return { status: res.status, body, headers: res.headers };
}
