import { createServer, type ServerResponse } from "node:http";
import { type Clock, systemClock } from "../../src/clock";
import { FIRST_PUBLICATION } from "../../src/domain/fx/coverage";
import { ECB_CURRENCIES, ENDED_CURRENCIES } from "../../src/domain/fx/currencies";
import { latestPublicationDay, publicationDays } from "../../src/domain/fx/publication";
import { addDays, earlierDay, laterDay } from "../../src/domain/instants";
import { type HttpFaultMode, SimulatorControl } from "./control";

/**
 * The ECB's euro reference rates, simulated: the daily file (GET /stats/eurofxref/eurofxref-daily.xml,
 * the gesmes envelope of the newest publication, tab-indented, single-quoted attributes), the
 * 90-day file (eurofxref-hist-90d.xml: one line, double quotes, newest day first, trailing zeros
 * dropped) and the data API's series EXR (GET
 * /service/data/EXR/D.<currencies>.EUR.SP00.A?startPeriod&endPeriod&format=csvdata[&detail=dataonly]:
 * one row an observation, series by series, days ascending; a 404 problem document "No results
 * found." for a window without one), as the recordings show them. A publication each TARGET working day at 16:00 Frankfurt time, from 4 January 1999,
 * by the clock. Faults on demand (control.ts), on the key "EXR" or "*": 500, timeout, malformed,
 * unknown (the data API's 404, and a daily file with no day), ratelimit (429), error200 (an HTML
 * error page with HTTP 200).
 */

export const ECB_SIM_FAULT_KEY = "EXR";

/** Each currency's level (units for one euro) and the decimals the ECB writes it with. */
const LEVELS: Record<string, [number, number]> = {
  USD: [1.12, 4],
  JPY: [160, 2],
  BGN: [1.9558, 4],
  CZK: [25, 3],
  DKK: [7.46, 4],
  GBP: [0.855, 5],
  HUF: [395, 2],
  PLN: [4.28, 4],
  RON: [4.97, 4],
  SEK: [11.2, 4],
  CHF: [0.94, 4],
  ISK: [150, 1],
  NOK: [11.6, 4],
  TRY: [38, 4],
  AUD: [1.7, 4],
  BRL: [6.2, 4],
  CAD: [1.55, 4],
  CNY: [8.1, 4],
  HKD: [8.75, 4],
  IDR: [18_000, 2],
  ILS: [4.1, 4],
  INR: [95, 4],
  KRW: [1_550, 2],
  MXN: [20.5, 4],
  MYR: [4.95, 4],
  NZD: [1.9, 4],
  PHP: [64, 3],
  SGD: [1.5, 4],
  THB: [37.5, 3],
  ZAR: [20.3, 4],
};

const DAY_MS = 86_400_000;

/**
 * The simulated rate of a currency on a publication day, as the ECB writes it: a slow wave of ±4 %
 * around its level with a small daily wiggle, the same on every run. The lev's peg to the euro holds.
 */
export function simulatedRate(currency: string, day: string): string {
  const [level, decimals] = LEVELS[currency] ?? [1, 4];
  if (currency === "BGN") return "1.9558";
  const n = Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
  const seed = currency.charCodeAt(0) * 31 + currency.charCodeAt(1) * 7 + currency.charCodeAt(2);
  const wiggle = ((((n + seed) * 2654435761) >>> 0) % 1001) / 1000 - 0.5;
  const v = level * (1 + 0.04 * Math.sin((n + seed) / 53) + 0.002 * wiggle);
  return String(Number(v.toFixed(decimals)));
}

/** The publication days between two days (both included), ascending, none before the first. */
const publishedBetween = (from: string, to: string): string[] => publicationDays(laterDay(from, FIRST_PUBLICATION), to);

/** The currencies of a day's publication: the lev until it joined the euro. */
const publishedOn = (day: string): string[] => [
  ...ECB_CURRENCIES,
  ...Object.entries(ENDED_CURRENCIES)
    .filter(([, last]) => day <= last)
    .map(([c]) => c),
];

function dailyXml(day: string): string {
  const cubes = publishedOn(day)
    .map((c) => `\t\t\t<Cube currency='${c}' rate='${simulatedRate(c, day)}'/>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${day}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;
}

/**
 * The 90-day file: the publications of the 90 days to `latest`, newest first, on one line; from
 * `floor` on at least, when given (the tests pin the service's clock to days the file must hold
 * whatever day they run).
 */
function recentXml(latest: string, floor?: string): string {
  const start = addDays(latest, -90);
  const days = publishedBetween(floor && floor < start ? floor : start, latest).reverse();
  const cubes = days
    .map(
      (d) =>
        `<Cube time="${d}">${publishedOn(d)
          .map((c) => `<Cube currency="${c}" rate="${Number(simulatedRate(c, d))}"/>`)
          .join("")}</Cube>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender><Cube>${cubes}</Cube></gesmes:Envelope>`;
}

const FULL_HEADER =
  "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,OBS_PRE_BREAK,OBS_COM,TIME_FORMAT,BREAKS,COLLECTION,COMPILING_ORG,DISS_ORG,DOM_SER_IDS,PUBL_ECB,PUBL_MU,PUBL_PUBLIC,UNIT_INDEX_BASE,COMPILATION,COVERAGE,DECIMALS,NAT_TITLE,SOURCE_AGENCY,SOURCE_PUB,TITLE,TITLE_COMPL,UNIT,UNIT_MULT";
const DATA_HEADER = "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE";

function exrCsv(currencies: readonly string[], days: readonly string[], dataOnly: boolean): string {
  const lines = [dataOnly ? DATA_HEADER : FULL_HEADER];
  for (const c of currencies)
    for (const d of days.filter((day) => publishedOn(day).includes(c))) {
      const head = `EXR.D.${c}.EUR.SP00.A,D,${c},EUR,SP00,A,${d},${simulatedRate(c, d)}`;
      const decimals = LEVELS[c]?.[1] ?? 4;
      lines.push(
        dataOnly
          ? head
          : `${head},A,F,,,P1D,,A,,,,,,,,,,${decimals},,4F0,,${c}/Euro,"ECB reference exchange rate, ${c}/Euro, 2:15 pm (C.E.T.)",${c},0`,
      );
    }
  return `${lines.join("\r\n")}\r\n`;
}

const send = (res: ServerResponse, status: number, type: string, body: string) => {
  res.writeHead(status, { "content-type": type });
  res.end(body);
};

/** The data API's problem document for a query without an observation. */
function noResults(res: ServerResponse, path: string): void {
  const body = { type: path, title: "Not Found", status: 404, detail: "No results found.", instance: path };
  send(res, 404, "application/json", JSON.stringify(body));
}

export interface EcbSim {
  url: string;
  close(): Promise<void>;
}

/** The currencies a series key names (`D..EUR.SP00.A`: all; `D.USD+JPY.EUR.SP00.A`), or null for another key. */
function keyCurrencies(key: string): string[] | null {
  const m = /^D\.([A-Z+]*)\.EUR\.SP00\.A$/.exec(key);
  if (!m) return null;
  const known = [...ECB_CURRENCIES, ...Object.keys(ENDED_CURRENCIES)];
  if (m[1] === "") return known.sort();
  return (m[1] ?? "").split("+").filter((c) => known.includes(c));
}

export async function startEcbSim(opts: { port?: number; clock?: Clock; recentFloor?: string } = {}): Promise<EcbSim> {
  const clock = opts.clock ?? systemClock;
  const control = new SimulatorControl<HttpFaultMode>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    if (await control.handle(req, res, url)) return;
    const file = /^\/stats\/eurofxref\/(eurofxref-daily|eurofxref-hist-90d)\.xml$/.exec(url.pathname)?.[1];
    const series = /^\/service\/data\/EXR\/([^/]+)$/.exec(url.pathname);
    if (!file && !series) return send(res, 404, "text/html", "<html><body>Not found</body></html>");
    control.count(file ?? "EXR");
    const fault = control.take(ECB_SIM_FAULT_KEY);
    if (control.transport(fault, res)) return;
    switch (fault) {
      case "500":
        return send(res, 500, "text/html", "<html><body><h1>500 Internal Server Error</h1></body></html>");
      case "timeout":
        return control.hold(res);
      case "malformed":
        return file
          ? send(res, 200, "text/xml", '<?xml version="1.0"?><gesmes:Envelope><Cube><Cube time=\'2026-')
          : send(res, 200, "text/csv", "KEY,FREQ\r\nEXR.D.USD");
      case "ratelimit":
        return send(res, 429, "text/html", "<html><body>Too Many Requests</body></html>");
      case "error200":
        return send(res, 200, "text/html", "<html><body><h1>Service temporarily unavailable</h1></body></html>");
    }
    const latest = latestPublicationDay(clock.now());
    if (file) {
      if (fault === "unknown")
        return send(res, 200, "text/xml", '<?xml version="1.0"?><gesmes:Envelope><Cube></Cube></gesmes:Envelope>');
      return send(
        res,
        200,
        "text/xml",
        file === "eurofxref-daily" ? dailyXml(latest) : recentXml(latest, opts.recentFloor),
      );
    }
    const currencies = keyCurrencies(decodeURIComponent(series?.[1] ?? ""));
    if (!currencies) return send(res, 400, "text/plain", "Bad syntax in the series key.");
    const from = url.searchParams.get("startPeriod") ?? FIRST_PUBLICATION;
    const toAsked = url.searchParams.get("endPeriod") ?? latest;
    const to = earlierDay(toAsked, latest);
    const days = fault === "unknown" ? [] : publishedBetween(from, to);
    if (!days.length || !currencies.length) return noResults(res, url.pathname);
    return send(res, 200, "text/csv", exrCsv(currencies, days, url.searchParams.get("detail") === "dataonly"));
  });
  return control.listen(server, opts.port ?? 0);
}
