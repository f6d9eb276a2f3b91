import { createServer } from "node:http";
import { type Clock, systemClock } from "../../src/clock";
import { H10_SERIES, H10_USD_PER_EUR } from "../../src/domain/fx/h10";
import { type HttpFaultMode, SimulatorControl, sendJson } from "./control";
import { simulatedRate } from "./ecb";

/**
 * The macro provider's simulator (FRED): GET /fred/series/observations for DGS10, newest first
 * with sort_order=desc, about one business day behind the clock, a "." on each US bond-market
 * holiday as FRED writes it; and the OECD's monthly long-term yields of the other currencies
 * (IRLTLT01<country>M156N), dated the first of each month, the newest the month before the clock's,
 * trailing zeros dropped as FRED writes them ("2.6", "4"). Keys are checked as FRED checks them (set, 32 lowercase alphanumerics,
 * registered: FRED_SIM_KEY), errors come in FRED's envelope `{error_code, error_message}`, HTTP 400
 * (429 past the rate). Faults on demand (control.ts), on the series id or "*": 500, timeout,
 * malformed, unknown (the series does not exist), ratelimit (429), error200 (the error envelope
 * with HTTP 200), badkey (the key reported as not registered).
 */

export type FredFaultMode = HttpFaultMode | "badkey";

/** The one key the simulator has registered. */
export const FRED_SIM_KEY = "0123456789abcdefghijklmnopqrstuv";
export const SIM_SERIES = "DGS10";

/** US bond-market (SIFMA) full-day holidays of the simulated years: no observation ("."). */
const HOLIDAYS = new Set([
  "2025-01-01",
  "2025-01-20",
  "2025-02-17",
  "2025-04-18",
  "2025-05-26",
  "2025-06-19",
  "2025-07-04",
  "2025-09-01",
  "2025-10-13",
  "2025-11-11",
  "2025-11-27",
  "2025-12-25",
  "2026-01-01",
  "2026-01-19",
  "2026-02-16",
  "2026-04-03",
  "2026-05-25",
  "2026-06-19",
  "2026-07-03",
  "2026-09-07",
  "2026-10-12",
  "2026-11-11",
  "2026-11-26",
  "2026-12-25",
  "2027-01-01",
  "2027-01-18",
  "2027-02-15",
  "2027-03-26",
  "2027-05-31",
  "2027-06-18",
  "2027-07-05",
  "2027-09-06",
  "2027-10-11",
  "2027-11-11",
  "2027-11-25",
  "2027-12-24",
]);

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The simulated 10-year yield of a day, in percent with two decimals as FRED writes it, or "." on a
 * holiday: a slow wave around 4.1 % with a small day-to-day wiggle, the same on every run.
 */
export function dgs10On(day: string): string {
  if (HOLIDAYS.has(day)) return ".";
  const n = Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
  const wiggle = (((n * 2654435761) >>> 0) % 21) / 100 - 0.1;
  return (4.1 + 0.45 * Math.sin(n / 37) + wiggle).toFixed(2);
}

/** Each monthly series' level in percent (a 10-year yield of late 2026, near enough). */
const MONTHLY_LEVELS: Record<string, number> = {
  DE: 2.6,
  GB: 4.5,
  JP: 1.7,
  CH: 0.4,
  CA: 3.3,
  AU: 4.4,
  NZ: 4.6,
  SE: 2.5,
  DK: 2.5,
  NO: 3.9,
  CZ: 4.3,
  HU: 6.8,
  PL: 5.6,
  IL: 4.2,
  KR: 2.9,
  MX: 9.5,
  ZA: 10.4,
  US: 4.2,
};

/** The country of a monthly long-term yield series (`IRLTLT01DEM156N`: DE), or null for another id. */
const monthlyCountry = (series: string): string | null => {
  const c = /^IRLTLT01([A-Z]{2})M156N$/.exec(series)?.[1];
  return c && c in MONTHLY_LEVELS ? c : null;
};

/** A monthly yield of a month (its first day), as FRED writes it: a slow wave around the level, 2 decimals at most. */
export function monthlyYieldOn(series: string, month: string): string {
  const level = MONTHLY_LEVELS[monthlyCountry(series) ?? ""] ?? 3;
  const n = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
  return String(Number((level + 0.35 * Math.sin(n / 5 + level)).toFixed(2)));
}

/** The first days of the months before `today`'s, newest first (the OECD's series run a month behind). */
export function monthlyDays(today: string, count: number): string[] {
  const out: string[] = [];
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  while (out.length < count) {
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
    out.push(`${y}-${String(m).padStart(2, "0")}-01`);
  }
  return out;
}

/** The H.10 exchange-rate series the simulator serves (the ECB simulator's rates, crossed through the dollar). */
const H10_IDS = new Map<string, { currency: string; quote: "per_usd" | "usd_per" | "usd_per_eur" }>([
  [H10_USD_PER_EUR, { currency: "USD", quote: "usd_per_eur" }],
  ...Object.entries(H10_SERIES).map(([currency, s]) => [s.id, { currency, quote: s.quote }] as const),
]);

/**
 * An H.10 rate of a business day, four decimals as FRED writes them, or "." on a US holiday: the
 * ECB simulator's rates of the day crossed through the dollar (the two sandbox providers agree
 * to about four digits, as the real ones do).
 */
export function h10On(series: string, day: string): string {
  const s = H10_IDS.get(series);
  if (!s || HOLIDAYS.has(day)) return ".";
  const usd = Number(simulatedRate("USD", day));
  if (s.quote === "usd_per_eur") return usd.toFixed(4);
  const own = Number(simulatedRate(s.currency, day));
  return (s.quote === "per_usd" ? own / usd : usd / own).toFixed(4);
}

/** Business days (Monday to Friday) from `fromDay` back, newest first, as FRED lists DGS10. */
export function observationDays(latestDay: string, count: number): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${latestDay}T00:00:00Z`); out.length < count; t -= DAY_MS) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(isoDay(t));
  }
  return out;
}

/** The newest day FRED lists on `today`: the previous day (DGS10 runs about a business day behind). */
export const latestListedDay = (today: string) => isoDay(Date.parse(`${today}T00:00:00Z`) - DAY_MS);

const envelope = (code: number, message: string) => ({ error_code: code, error_message: message });
const NOT_REGISTERED =
  "Bad Request.  The value for variable api_key is not registered.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.";

export interface FredSim {
  url: string;
  close(): Promise<void>;
}

export async function startFredSim(opts: { port?: number; clock?: Clock } = {}): Promise<FredSim> {
  const clock = opts.clock ?? systemClock;
  const control = new SimulatorControl<FredFaultMode>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    if (await control.handle(req, res, url)) return;
    if (url.pathname !== "/fred/series/observations") return sendJson(res, 404, envelope(404, "Not Found"));
    const series = url.searchParams.get("series_id") ?? "";
    control.count(`observations ${series}`);
    const key = url.searchParams.get("api_key");
    if (!key) return sendJson(res, 400, envelope(400, "Bad Request.  Variable api_key is not set."));
    if (!/^[a-z0-9]{32}$/.test(key))
      return sendJson(
        res,
        400,
        envelope(
          400,
          "Bad Request.  The value for variable api_key is not a 32 character alpha-numeric lower-case string.",
        ),
      );
    const fault = control.take(series);
    if (key !== FRED_SIM_KEY || fault === "badkey") return sendJson(res, 400, envelope(400, NOT_REGISTERED));
    if (control.transport(fault, res)) return;
    switch (fault) {
      case "500":
        res.writeHead(500, { "content-type": "text/html" });
        return res.end("<html><body><h1>Internal Server Error</h1></body></html>");
      case "timeout":
        return control.hold(res);
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end('{"realtime_start":"2026-11-20","observations":[{"date":"2026-11-');
      case "ratelimit":
        return sendJson(res, 429, envelope(429, "Too Many Requests.  Exceeded Rate Limit"));
      case "error200":
        return sendJson(res, 200, envelope(500, "Internal Server Error.  Please try again later."));
    }
    const monthly = monthlyCountry(series) !== null;
    const h10 = H10_IDS.has(series);
    if ((series !== SIM_SERIES && !monthly && !h10) || fault === "unknown")
      return sendJson(res, 400, envelope(400, "Bad Request.  The series does not exist."));
    const limit = Math.min(Math.max(Number(url.searchParams.get("limit") ?? 100_000) || 100_000, 1), 100_000);
    const today = clock.today();
    // The window FRED filters on (and echoes); the default start is echoed as 1600-01-01.
    const start = url.searchParams.get("observation_start") ?? "1600-01-01";
    const end = url.searchParams.get("observation_end") ?? "9999-12-31";
    const listed = monthly
      ? monthlyDays(today, Math.min(limit, 400))
      : observationDays(latestListedDay(today), Math.min(limit, 400));
    const days = listed.filter((d) => d >= start && d <= end);
    const desc = url.searchParams.get("sort_order") === "desc";
    const observations = (desc ? days : [...days].reverse()).map((date) => ({
      realtime_start: today,
      realtime_end: today,
      date,
      value: monthly ? monthlyYieldOn(series, date) : h10 ? h10On(series, date) : dgs10On(date),
    }));
    return sendJson(res, 200, {
      realtime_start: today,
      realtime_end: today,
      observation_start: start,
      observation_end: end,
      units: "lin",
      output_type: 1,
      file_type: "json",
      order_by: "observation_date",
      sort_order: desc ? "desc" : "asc",
      count: start === "1600-01-01" && end === "9999-12-31" ? 16_000 : days.length,
      offset: 0,
      limit,
      observations,
    });
  });
  return control.listen(server, opts.port ?? 0);
}
