import type { Bar } from "../../domain/bars";
import { describe, type SchemaDrift } from "../../domain/drift";
import { DAY_MS, isoDay } from "../../domain/instants";
import { STREAM } from "../../domain/provider-names";
import { ProviderError } from "../errors";
import type { History, HistoryProvider } from "../history";
import { BROWSER_USER_AGENT, callTimeout, failureOf } from "../http";
import { observed } from "../isolate";
import { ProviderClient } from "../options";
import { decodeFrames, encodeFrame, type Frame, message, sessionId } from "./protocol";

/** The provider accepts chart sessions from its own site only. */
const HEADERS = {
  Origin: "https://www.tradingview.com",
  "User-Agent": BROWSER_USER_AGENT,
};

/** Anonymous sessions get at most about 5,000 bars of a series. */
const MAX_BARS = 5000;

const SERIES = "sds_1";
const SYMBOL_REF = "sds_sym_1";

/** Weekdays from `from` through today, plus a margin: how many daily bars to ask for. */
function barsSince(from: string, now: number): number {
  const days = Math.max(1, Math.ceil((now - Date.parse(`${from}T00:00:00Z`)) / DAY_MS));
  return Math.min(MAX_BARS, Math.ceil((days * 5) / 7) + 10);
}

export const decimalsOf = (pricescale: unknown) =>
  typeof pricescale === "number" && pricescale >= 1 ? Math.min(8, Math.round(Math.log10(pricescale))) : 4;
const round = (x: number, dp: number) => Number(x.toFixed(dp));

/**
 * Opens a WebSocket the Workers way (fetch with Upgrade), which lets us send the Origin header the
 * provider insists on. `wss://` is fetched as `https://`. The handshake must complete within
 * `timeoutMs`: a provider that accepts the connection and never answers is a timeout.
 */
export async function openSocket(wsUrl: string, timeoutMs: number): Promise<WebSocket> {
  const url = wsUrl.replace(/^ws(s?):\/\//, "http$1://");
  let res: Response;
  // Its own controller, cleared once connected: a signal that fired later would close the socket.
  const handshake = new AbortController();
  const timer = setTimeout(() => handshake.abort(), timeoutMs);
  try {
    res = await fetch(url, { headers: { ...HEADERS, Upgrade: "websocket" }, signal: handshake.signal });
  } catch (err) {
    throw failureOf(STREAM, err, timeoutMs, wsUrl, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
  const ws = (res as Response & { webSocket?: WebSocket | null }).webSocket;
  if (!ws)
    throw new ProviderError(
      STREAM,
      res.status === 429 ? "rate_limited" : "unavailable",
      `no WebSocket upgrade (HTTP ${res.status})`,
    );
  (ws as WebSocket & { accept(): void }).accept();
  return ws;
}

interface SeriesState {
  currency: string | null;
  exchange: string | null;
  decimals: number;
  bars: Map<number, number[]>;
}

/**
 * Bars of a `timescale_update` or `du` for a series: `{"sds_1": {"s": [{"i": 0, "v": [t, o, h, l, c, v]}]}}`,
 * keyed by bar time. A point of another shape is left out (the others kept); the first one is
 * returned as drift for the caller to report.
 */
export function collectBars(params: unknown[], into: Map<number, number[]>, seriesId = SERIES): SchemaDrift[] {
  const series = (params[1] as Record<string, { s?: { v?: unknown }[] }> | undefined)?.[seriesId];
  let odd: unknown;
  for (const point of series?.s ?? []) {
    const v = point?.v;
    if (Array.isArray(v) && v.length >= 5 && v.slice(0, 5).every((x) => typeof x === "number" && Number.isFinite(x))) {
      into.set(Math.floor(v[0] as number), v as number[]);
    } else odd ??= v;
  }
  if (odd === undefined) return [];
  return [
    {
      provider: STREAM,
      document: "timescale_update",
      path: `p[1].${seriesId}.s[].v`,
      expected: "[time, open, high, low, close, volume] as numbers",
      seen: describe(odd),
    },
  ];
}

/**
 * The stream provider (TradingView's chart WebSocket) as a source of daily history: one chart
 * session per call, heartbeats echoed, bars read until `series_completed`. Daily bars carry no
 * dividend adjustment, so their adjusted close is the close. Its `baseUrl` is the WebSocket address.
 */
export class StreamProviderClient extends ProviderClient implements HistoryProvider {
  readonly name = STREAM;

  async dailyHistory(symbol: string, from: string, to: string): Promise<History> {
    await this.pace(STREAM);
    return observed(STREAM, this.watch, () => this.fetchDailyHistory(symbol, from, to));
  }

  private async fetchDailyHistory(symbol: string, from: string, to: string): Promise<History> {
    const ms = callTimeout(STREAM, this.timeoutMs, this.deadline);
    const startedAt = this.clock.now().getTime();
    const ws = await openSocket(this.baseUrl, ms);
    const left = Math.max(1, ms - (this.clock.now().getTime() - startedAt));
    const cs = sessionId("cs");
    const state: SeriesState = { currency: null, exchange: null, decimals: 4, bars: new Map() };
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new ProviderError(STREAM, "timeout", `no complete series for ${symbol} within ${ms} ms`)),
          left,
        );
        const finish = (err?: ProviderError) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        };
        ws.addEventListener("message", (ev) => {
          const text = typeof ev.data === "string" ? ev.data : "";
          for (const frame of decodeFrames(text)) this.onFrame(ws, frame, symbol, state, finish);
        });
        ws.addEventListener("close", () =>
          finish(new ProviderError(STREAM, "unavailable", "connection closed before the series completed")),
        );
        ws.addEventListener("error", () => finish(new ProviderError(STREAM, "unavailable", "connection error")));
        const send = (method: string, params: unknown[]) => ws.send(message(method, params));
        send("set_auth_token", ["unauthorized_user_token"]);
        send("chart_create_session", [cs, ""]);
        send("switch_timezone", [cs, "Etc/UTC"]);
        send("resolve_symbol", [
          cs,
          SYMBOL_REF,
          `=${JSON.stringify({ symbol, adjustment: "splits", session: "regular" })}`,
        ]);
        send("create_series", [cs, SERIES, "s1", SYMBOL_REF, "1D", barsSince(from, this.clock.now().getTime()), ""]);
      });
    } finally {
      try {
        ws.send(message("chart_delete_session", [cs]));
        ws.close(1000, "done");
      } catch {
        // already closed by the server
      }
    }
    const bars: Bar[] = [];
    for (const [time, v] of [...state.bars.entries()].sort((a, b) => a[0] - b[0])) {
      const date = isoDay(new Date(time * 1000));
      if (date < from || date > to) continue;
      const [, open, high, low, close, volume] = v.map((x) => x ?? 0) as [
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      const c = round(close, state.decimals);
      bars.push({
        date,
        open: round(open, state.decimals),
        high: round(high, state.decimals),
        low: round(low, state.decimals),
        close: c,
        adjClose: c,
        volume: Math.round(volume ?? 0),
      });
    }
    return { symbol, currency: state.currency, exchange: state.exchange, bars };
  }

  private onFrame(
    ws: WebSocket,
    frame: Frame,
    symbol: string,
    state: SeriesState,
    finish: (err?: ProviderError) => void,
  ): void {
    if (frame.kind === "heartbeat") {
      ws.send(encodeFrame(frame.raw)); // unanswered heartbeats get the session dropped
      return;
    }
    if (frame.kind !== "message") return;
    const p = frame.params;
    switch (frame.method) {
      case "symbol_resolved": {
        const info = (p[2] ?? {}) as { currency_code?: unknown; pricescale?: unknown; exchange?: unknown };
        state.currency = typeof info.currency_code === "string" ? info.currency_code : null;
        if (state.currency === null)
          this.drifts.report(symbol, [
            {
              provider: STREAM,
              document: "symbol_resolved",
              path: "p[2].currency_code",
              expected: "a string",
              seen: describe(info.currency_code),
            },
          ]);
        state.exchange = typeof info.exchange === "string" ? info.exchange : null;
        state.decimals = decimalsOf(info.pricescale);
        return;
      }
      case "timescale_update":
        this.drifts.report(symbol, collectBars(p, state.bars));
        return;
      case "series_completed":
        finish();
        return;
      case "symbol_error":
        finish(new ProviderError(STREAM, "not_found", `unknown symbol ${symbol}: ${String(p[2] ?? "invalid symbol")}`));
        return;
      case "series_error":
      case "critical_error":
      case "protocol_error":
        finish(new ProviderError(STREAM, "bad_response", `${frame.method}: ${p.map(String).join(" ")}`));
        return;
    }
  }
}
