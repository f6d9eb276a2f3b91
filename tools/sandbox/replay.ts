import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { readBody, sendJson } from "./control";

/**
 * Serves answers the real providers gave (test/fixtures/recorded/<provider>/*.json) at a base URL
 * per provider: `<url>/<provider>` stands for the provider's host, so a client pointed there reads
 * exactly what the real service once sent. A variant (`POST /__replay/variants`) serves one
 * recording with another body under `<url>/v/<id>/<provider>`: the drift net's mutations, side by
 * side with the original, so concurrent tests never see each other's.
 *
 * Replay rules (what the real services do, not data of ours):
 * - quoteSummary answers only the modules asked; the recordings of one symbol are merged (the
 *   London share is recorded one module at a time). A symbol never recorded: the provider's 404.
 * - fundamentals-timeseries answers a type list with the recording of the same period type and
 *   module; types with no recording come back as the provider sends series without data (meta
 *   only, no timestamp).
 * - anything else: the recording of the same path and the same identity (symbol, query, series)
 *   whose other parameters agree most with the request's (windows, keys and crumbs ignored); for
 *   full-text news searches, another query's recording when none was made of this one.
 *   Nothing recorded: 404.
 */

export interface Recording {
  provider: string;
  file: string;
  request: { method: string; url: string };
  response: { status: number; contentType?: string; headers?: Record<string, string | string[]>; body: unknown };
}

/** Every recording under `dir`, by provider folder, in file-name order. */
export function loadRecordings(dir: string): Recording[] {
  const out: Recording[] = [];
  for (const provider of readdirSync(dir, { withFileTypes: true })) {
    if (!provider.isDirectory()) continue;
    for (const file of readdirSync(join(dir, provider.name)).sort()) {
      if (!file.endsWith(".json")) continue;
      const r = JSON.parse(readFileSync(join(dir, provider.name, file), "utf8")) as Omit<
        Recording,
        "provider" | "file"
      >;
      out.push({ provider: provider.name, file, ...r });
    }
  }
  return out;
}

const VOLATILE = new Set([
  "period1",
  "period2",
  "crumb",
  "token",
  "api_key",
  "apikey",
  "apiKey",
  "api_token",
  "from",
  "to",
  "time_from",
  "published_after",
  "observation_start",
  "observation_end",
  "limit",
  "lang",
  "region",
]);

/** Parameters that name what is asked (a symbol, a query): a recording answers only the same one. */
const IDENTITY = ["q", "s", "symbol", "symbols", "tickers", "series_id", "query", "function"];
/**
 * Full-text news searches: their recordings answered another query than the service asks (it writes
 * its own, from the company's name), so the query is preferred, not required. The answer's form is
 * what is replayed; its articles are what that provider once sent.
 */
const FREE_TEXT = new Set(["google_news_rss", "newsapi", "gdelt"]);

const pathOf = (r: Recording) => new URL(r.request.url).pathname;
const queryOf = (r: Recording) => new URL(r.request.url).searchParams;

function sameIdentity(r: Recording, asked: URLSearchParams, except: readonly string[] = []): boolean {
  const theirs = queryOf(r);
  return IDENTITY.filter((k) => !except.includes(k)).every(
    (k) => !theirs.has(k) || theirs.get(k)?.toLowerCase() === asked.get(k)?.toLowerCase(),
  );
}

function agreement(r: Recording, asked: URLSearchParams): number {
  let n = 0;
  for (const [k, v] of queryOf(r)) if (!VOLATILE.has(k) && asked.get(k) === v) n++;
  return n;
}

/** How long the recording's window (period1 to period2, epoch seconds) shares with the asked one. */
function windowOverlap(r: Recording, asked: URLSearchParams): number {
  const theirs = queryOf(r);
  const [a1, a2, t1, t2] = [
    asked.get("period1"),
    asked.get("period2"),
    theirs.get("period1"),
    theirs.get("period2"),
  ].map(Number);
  if (![a1, a2, t1, t2].every((x) => Number.isFinite(x))) return 0;
  return Math.max(0, Math.min(a2 as number, t2 as number) - Math.max(a1 as number, t1 as number));
}

type Answer = { status: number; contentType: string; headers?: Record<string, string | string[]>; body: string };

const asText = (body: unknown) => (typeof body === "string" ? body : JSON.stringify(body));

function answerOf(r: Recording): Answer {
  return {
    status: r.response.status,
    contentType: r.response.contentType ?? "application/json",
    headers: r.response.headers?.["set-cookie"] ? { "set-cookie": r.response.headers["set-cookie"] } : undefined,
    body: r.response.body === null ? "" : asText(r.response.body),
  };
}

type Json = Record<string, unknown>;

function quoteSummary(candidates: Recording[], path: string, asked: URLSearchParams): Answer {
  const symbol = decodeURIComponent(path.split("/").pop() ?? "");
  if (candidates.length === 0)
    return {
      status: 404,
      contentType: "application/json;charset=utf-8",
      body: JSON.stringify({
        quoteSummary: {
          result: null,
          error: { code: "Not Found", description: `Quote not found for symbol: ${symbol}` },
        },
      }),
    };
  const modules = (asked.get("modules") ?? "price,summaryDetail").split(",");
  const merged: Json = {};
  for (const r of candidates) {
    const result = ((r.response.body as Json).quoteSummary as { result: Json[] }).result[0] ?? {};
    for (const [m, v] of Object.entries(result)) if (modules.includes(m) && !(m in merged)) merged[m] = v;
  }
  return {
    status: 200,
    contentType: candidates[0]?.response.contentType ?? "application/json",
    body: JSON.stringify({ quoteSummary: { result: [merged], error: null } }),
  };
}

const PERIOD = /^(annual|quarterly|trailing)/;

function timeseries(candidates: Recording[], path: string, asked: URLSearchParams): Answer {
  const types = (asked.get("type") ?? "").split(",").filter(Boolean);
  const kind = PERIOD.exec(types[0] ?? "")?.[1];
  const recorded = candidates.find((r) => {
    const theirs = (queryOf(r).get("type") ?? "").split(",");
    return PERIOD.exec(theirs[0] ?? "")?.[1] === kind && theirs.some((t) => types.includes(t));
  });
  if (recorded) return answerOf(recorded);
  const symbol = decodeURIComponent(path.split("/").pop() ?? "");
  return {
    status: 200,
    contentType: "application/json;charset=utf-8",
    body: JSON.stringify({
      timeseries: { result: types.map((type) => ({ meta: { symbol: [symbol], type: [type] } })), error: null },
    }),
  };
}

/** The answer the recordings give to a request of `provider` for `url` (path and query as sent). */
export function replay(recordings: readonly Recording[], provider: string, url: URL): Answer {
  const mine = recordings.filter((r) => r.provider === provider);
  const same = mine.filter((r) => pathOf(r) === url.pathname);
  if (url.pathname.startsWith("/v10/finance/quoteSummary/")) return quoteSummary(same, url.pathname, url.searchParams);
  if (url.pathname.includes("/finance/timeseries/")) return timeseries(same, url.pathname, url.searchParams);
  const exact = same.filter((r) => sameIdentity(r, url.searchParams));
  const candidates =
    exact.length === 0 && FREE_TEXT.has(provider)
      ? same.filter((r) => sameIdentity(r, url.searchParams, ["q", "query"]))
      : exact;
  const best = candidates
    .map((r) => ({ r, score: agreement(r, url.searchParams), overlap: windowOverlap(r, url.searchParams) }))
    .sort((a, b) => b.score - a.score || b.overlap - a.overlap)
    .at(0)?.r;
  if (best) return answerOf(best);
  return {
    status: 404,
    contentType: "application/json",
    body: JSON.stringify({ replay: "nothing recorded for this request", provider, path: url.pathname }),
  };
}

export interface ReplayServer {
  url: string;
  recordings: Recording[];
  close(): Promise<void>;
}

/**
 * Starts the replay server on 127.0.0.1 (`port` 0: any free one). Variants: `POST /__replay/variants`
 * with `{provider, file, body}` answers `{id}`; `<url>/v/<id>/<provider>/...` then serves that body
 * in place of the file's.
 */
export async function startReplay(opts: { dir: string; port?: number }): Promise<ReplayServer> {
  const recordings = loadRecordings(opts.dir);
  const variants = new Map<string, Recording[]>();
  let next = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? "/", "http://replay");
      if (url.pathname === "/__replay/variants" && req.method === "POST") {
        const v = JSON.parse(await readBody(req)) as { provider: string; file: string; body: unknown };
        const id = String(++next);
        variants.set(
          id,
          recordings.map((r) =>
            r.provider === v.provider && r.file === v.file ? { ...r, response: { ...r.response, body: v.body } } : r,
          ),
        );
        return sendJson(res, 200, { id });
      }
      const parts = url.pathname.split("/");
      let set: readonly Recording[] = recordings;
      if (parts[1] === "v") {
        const found = variants.get(parts[2] ?? "");
        if (!found) return sendJson(res, 404, { replay: "no such variant" });
        set = found;
        parts.splice(1, 2);
      }
      const provider = parts[1] ?? "";
      const rest = new URL(`/${parts.slice(2).join("/")}${url.search}`, "http://replay");
      const a = replay(set, provider, rest);
      res.writeHead(a.status, { "content-type": a.contentType, ...(a.headers ?? {}) });
      res.end(a.body);
    } catch (err) {
      sendJson(res, 500, { replay: `replay server error: ${String(err)}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    recordings,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
