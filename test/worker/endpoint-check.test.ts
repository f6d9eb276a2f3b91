import { describe, expect, it } from "vitest";
import type { WidgetParam } from "../../src/domain/workspace/widget-types";
import { READ_ONLY_KEY } from "../helpers/keys";
import { answerFits } from "../helpers/openbb-rules";
import { call } from "../helpers/worker-http";

/**
 * In the spirit of OpenBB's endpoint checker for custom backends (a Python script on `requests`):
 * every widget of /widgets.json called with its default parameters, encoded as `requests` encodes
 * a `params` dict (booleans `True`/`False`, `quote_plus` escapes, a list as the key repeated), and a
 * multi-select's default both repeated and comma-joined; each answers 200 in its type's shape.
 */

type Widget = { endpoint: string; type: string; params?: WidgetParam[] };

/** Python's urllib.parse.quote_plus: letters, digits and `_.-~` kept, a space as `+`, the rest escaped. */
const quotePlus = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");

/** How `str()` writes a default: Python's booleans are capitalised. */
const pythonText = (v: string | number | boolean | null) =>
  v === true ? "True" : v === false ? "False" : v === null ? "None" : String(v);

/** `requests.get(url, params=...)` of the widget's defaults; a multi-select as a list (repeated) or as given (joined). */
function pythonQuery(params: readonly WidgetParam[], lists: "repeated" | "joined"): string {
  const pairs: [string, string][] = [];
  for (const p of params) {
    if (p.value === null) continue; // requests leaves out a None
    const values =
      p.multiSelect && lists === "repeated" && typeof p.value === "string" ? p.value.split(",") : [pythonText(p.value)];
    for (const v of values) pairs.push([p.paramName, v]);
  }
  return pairs.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join("&");
}

const widgets = async () => (await call<Record<string, Widget>>("/widgets.json", { key: null })).body;

describe("OpenBB's endpoint check, as a Python client sends it", () => {
  it("encodes as requests does", () => {
    const params: WidgetParam[] = [
      { paramName: "ticker", label: "t", description: "", type: "text", value: "MC.PA" },
      { paramName: "force_refresh", label: "f", description: "", type: "boolean", value: false },
      { paramName: "limit", label: "l", description: "", type: "number", value: 20 },
      { paramName: "tickers", label: "ts", description: "", type: "text", value: "AAPL,MC.PA", multiSelect: true },
    ];
    expect(pythonQuery(params, "repeated")).toBe(
      "ticker=MC.PA&force_refresh=False&limit=20&tickers=AAPL&tickers=MC.PA",
    );
    expect(pythonQuery(params, "joined")).toBe("ticker=MC.PA&force_refresh=False&limit=20&tickers=AAPL%2CMC.PA");
  });

  it("every widget answers its defaults 200, in its type's shape", async () => {
    const all = await widgets();
    // The spec's 19 and our four (svc_dividends, svc_intraday, svc_exchange_calendar, svc_screener_conditions).
    expect(Object.keys(all).length).toBe(23);
    const failed: string[] = [];
    for (const [id, w] of Object.entries(all)) {
      const forms = (w.params ?? []).some((p) => p.multiSelect)
        ? (["repeated", "joined"] as const)
        : (["joined"] as const);
      const answers: unknown[] = [];
      for (const form of forms) {
        // The venues' calendars are held through 2027: the calendar widget is asked at a pinned instant.
        const at = id === "svc_exchange_calendar" ? { at: "2026-11-27T10:00:00Z" } : {};
        const res = await call<unknown>(`/${w.endpoint}?${pythonQuery(w.params ?? [], form)}`, {
          key: READ_ONLY_KEY,
          ...at,
        });
        if (res.status !== 200 || !answerFits(w.type, res.body))
          failed.push(`${id} (${form}): ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        // A metric's delta is a number to the workspace: a number or a numeric string.
        if (w.type === "metric")
          for (const t of res.body as { label: string; delta?: unknown }[])
            if (t.delta !== null && t.delta !== undefined && !Number.isFinite(Number(t.delta)))
              failed.push(`${id}: ${t.label}'s delta ${JSON.stringify(t.delta)} is no number`);
        answers.push(res.body);
      }
      if (answers.length === 2) expect(answers[0], `${id}: a list repeated or comma-joined`).toEqual(answers[1]);
    }
    expect(failed).toEqual([]);
  });
});
