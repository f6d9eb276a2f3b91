import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { RouteConfig } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import { createApp } from "../../src/app";
import { pinnedClock } from "../../src/clock";
import { ErrorSchema } from "../../src/routes/openapi";
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
  env?: Record<string, string>;
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
 * Statuses routes answer that the document does not declare: not held to the route's table, only to
 * the error shape. 415: @hono/zod-openapi's media-type gate refuses a body that is not JSON before a
 * route with a JSON body runs, and the error table in src/routes/openapi.ts has no 415 (reported, not
 * changed here).
 */
const UNDECLARED_STATUSES: readonly number[] = [415];

/** A documented operation: its method, its path template as a pattern, and its declared answers. */
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: RouteConfig["responses"];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&");

/** The operations of the OpenAPI document, read once from the app itself (the schemas the routes declare). */
const operations: Operation[] = createApp().openAPIRegistry.definitions.flatMap((def) => {
  if (def.type !== "route") return [];
  const { method, path, responses } = def.route;
  const parts = path.split(/\{\w+\}/);
  return [
    {
      method: method.toUpperCase(),
      template: path,
      pattern: new RegExp(`^${parts.map(escapeRegExp).join("[^/]+")}$`),
      params: parts.length - 1,
      responses,
    },
  ];
});

/** The operation answering `method pathname`; literal segments win (/technical/list is no ticker). */
function operationOf(method: string, pathname: string): Operation | undefined {
  const matches = operations.filter((o) => o.method === method && o.pattern.test(pathname));
  return matches.sort((a, b) => a.params - b.params)[0];
}

const isZodType = (s: unknown): s is ZodType =>
  typeof s === "object" && s !== null && "safeParse" in s && typeof s.safeParse === "function";

/**
 * What is wrong with an answer for the document, or undefined: it must have a declared status, a
 * declared media type, and a JSON body its schema accepts. Paths outside the document (/openapi.json,
 * /docs, the WebSocket route) are left alone, but an unknown route's 404 must still be a JSON error.
 */
function contractProblem(op: Operation | undefined, status: number, contentType: string, json: unknown) {
  const jsonError = json !== undefined && ErrorSchema.safeParse(json).success;
  if (!op) return status === 404 && !jsonError ? "an unknown route must answer a JSON {error, message}" : undefined;
  if (UNDECLARED_STATUSES.includes(status))
    return jsonError ? undefined : "an error must answer a JSON {error, message}";
  const declared = op.responses[String(status)];
  if (!declared) return "a status the route does not declare";
  if (!("content" in declared) || !declared.content) return "a status declared without a body";
  const mediaType = contentType.split(";")[0]?.trim() ?? "";
  const media = (declared.content as Record<string, unknown>)[json === undefined ? mediaType : "application/json"];
  if (!media) return `a ${mediaType || "body without a content type"}, which this status does not declare`;
  if (json === undefined) return undefined;
  const schema = typeof media === "object" && "schema" in media ? media.schema : undefined;
  if (!isZodType(schema)) return "its JSON schema is not a zod schema";
  const parsed = schema.safeParse(json);
  if (parsed.success) return undefined;
  // The first issues say what is wrong; a long series would repeat one issue per element.
  const { issues } = parsed.error;
  const lines = issues.slice(0, 10).map((i) => `  ${i.path.join(".") || "(body)"}: ${i.message}`);
  if (issues.length > 10) lines.push(`  and ${issues.length - 10} more`);
  return `the body does not match the declared schema:\n${lines.join("\n")}\nbody: ${JSON.stringify(json).slice(0, 500)}`;
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
  const op = operationOf(method, new URL(request.url).pathname);
  const problem = contractProblem(op, res.status, contentType, json);
  if (problem)
    throw new Error(
      `contract: ${method} ${path} (${op?.template ?? "undocumented"}) answered ${res.status}: ${problem}`,
    );
  // T is the caller's word for the body, which the check above holds to the route's schema.
  return { status: res.status, body: (json === undefined ? text : json) as T, headers: res.headers };
}
