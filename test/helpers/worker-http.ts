import { exports } from "cloudflare:workers";
import { FULL_KEY } from "./keys";

/** Calls the Worker under test; `key` defaults to a full-access key, `null` sends none. */
export async function call(
  path: string,
  opts: { method?: string; key?: string | null; bearer?: boolean; body?: unknown } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers();
  const key = opts.key === undefined ? FULL_KEY : opts.key;
  if (key !== null) headers.set(opts.bearer ? "authorization" : "x-api-key", opts.bearer ? `Bearer ${key}` : key);
  if (opts.body !== undefined) headers.set("content-type", "application/json");
  const res = await exports.default.fetch(`http://svc${path}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: any = text;
  if ((res.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
  return { status: res.status, body, headers: res.headers };
}
