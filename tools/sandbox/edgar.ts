import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type HttpFaultMode, SimulatorControl, sendJson } from "./control";
import { type SimFiling, type SimRegistrant, type SimTransaction, simRegistrants } from "./edgar-data";

/**
 * The SEC EDGAR simulator (www.sec.gov and data.sec.gov on one address): GET
 * /files/company_tickers.json, GET /submissions/CIK##########.json (the columnar `recent` block,
 * newest first, Form 4 among other forms) and GET /Archives/edgar/data/<cik>/<accession without
 * dashes>/<document>.xml (the raw ownershipDocument). As EDGAR does, it refuses with 403 and an HTML
 * page a request whose User-Agent declares no contact ("Undeclared Automated Tool"), and more than
 * ten requests in a second ("Request Rate Threshold Exceeded"). Faults on demand (see control.ts),
 * set on a CIK or "*": 500, timeout, malformed, unknown (404), ratelimit (the 403 rate page),
 * error200 (an HTML page served with HTTP 200 in place of JSON).
 */

export type EdgarFaultMode = HttpFaultMode;

export interface EdgarSim {
  url: string;
  close(): Promise<void>;
}

const UNDECLARED = `<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>
<h1>Your Request Originates from an Undeclared Automated Tool</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools. Your request has been identified as part of a network of automated tools outside of the acceptable policy and will be managed until action is taken to declare your traffic.</p>
<p>Please declare your traffic by updating your user agent to include company specific information.</p></body></html>`;

const RATE_EXCEEDED = `<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>
<h1>Your Request Originates from an Undeclared Automated Tool</h1><p>Request Rate Threshold Exceeded</p>
<p>The SEC's fair access policy limits automated searches to 10 requests per second.</p></body></html>`;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const v = (value: string | number | null, notes: string[] = []) =>
  `<value>${value === null ? "" : esc(String(value))}</value>${notes.map((n) => `<footnoteId id="${n}"/>`).join("")}`;

function transactionXml(t: SimTransaction): string {
  const common = `
      <securityTitle>${v(t.security)}</securityTitle>${
        t.table === "derivative"
          ? `\n      <conversionOrExercisePrice>${v(t.exercisePrice ?? null)}</conversionOrExercisePrice>`
          : ""
      }
      <transactionDate>${v(t.date)}</transactionDate>
      <transactionCoding>
        <transactionFormType>4</transactionFormType>
        <transactionCode>${t.code}</transactionCode>
        <equitySwapInvolved>0</equitySwapInvolved>${t.footnotes.length ? `\n        ${t.footnotes.map((n) => `<footnoteId id="${n}"/>`).join("")}` : ""}
      </transactionCoding>
      <transactionAmounts>
        <transactionShares>${v(t.shares)}</transactionShares>
        <transactionPricePerShare>${t.price === null ? "" : v(t.price, t.code === "S" ? ["F2"].filter((n) => t.footnotes.includes(n)) : [])}</transactionPricePerShare>
        <transactionAcquiredDisposedCode>${v(t.acquiredDisposed)}</transactionAcquiredDisposedCode>
      </transactionAmounts>`;
  const derivative =
    t.table === "derivative"
      ? `
      <exerciseDate>${v(t.exerciseDate ?? null)}</exerciseDate>
      <expirationDate>${v(t.expirationDate ?? null)}</expirationDate>
      <underlyingSecurity>
        <underlyingSecurityTitle>${v("Common Stock")}</underlyingSecurityTitle>
        <underlyingSecurityShares>${v(t.underlyingShares ?? null)}</underlyingSecurityShares>
      </underlyingSecurity>`
      : "";
  const tag = t.table === "derivative" ? "derivativeTransaction" : "nonDerivativeTransaction";
  return `
    <${tag}>${common}${derivative}
      <postTransactionAmounts>
        <sharesOwnedFollowingTransaction>${v(t.after)}</sharesOwnedFollowingTransaction>
      </postTransactionAmounts>
      <ownershipNature>
        <directOrIndirectOwnership>${v(t.ownership)}</directOrIndirectOwnership>${
          t.nature ? `\n        <natureOfOwnership>${v(t.nature, t.footnotes)}</natureOfOwnership>` : ""
        }
      </ownershipNature>
    </${tag}>`;
}

/** A Form 4 as EDGAR keeps it: the ownershipDocument XML (schema X0508). */
export function form4Xml(r: SimRegistrant, f: SimFiling): string {
  const o = f.owner;
  const nonDerivative = f.transactions
    .filter((t) => t.table === "non_derivative")
    .map(transactionXml)
    .join("");
  const derivative = f.transactions
    .filter((t) => t.table === "derivative")
    .map(transactionXml)
    .join("");
  return `<?xml version="1.0"?>
<ownershipDocument>
  <schemaVersion>X0508</schemaVersion>
  <documentType>${f.form}</documentType>
  <periodOfReport>${f.periodOfReport}</periodOfReport>
  <notSubjectToSection16>0</notSubjectToSection16>
  <issuer>
    <issuerCik>${String(r.cik).padStart(10, "0")}</issuerCik>
    <issuerName>${esc(r.name)}</issuerName>
    <issuerTradingSymbol>${r.ticker}</issuerTradingSymbol>
  </issuer>
  <reportingOwner>
    <reportingOwnerId>
      <rptOwnerCik>${o.cik.padStart(10, "0")}</rptOwnerCik>
      <rptOwnerName>${esc(o.name)}</rptOwnerName>
    </reportingOwnerId>
    <reportingOwnerAddress>
      <rptOwnerStreet1>ONE MARKET STREET</rptOwnerStreet1>
      <rptOwnerCity>NEW YORK</rptOwnerCity>
      <rptOwnerState>NY</rptOwnerState>
      <rptOwnerZipCode>10004</rptOwnerZipCode>
    </reportingOwnerAddress>
    <reportingOwnerRelationship>
      <isDirector>${o.director ? "1" : "0"}</isDirector>
      <isOfficer>${o.officer ? "1" : "0"}</isOfficer>
      <isTenPercentOwner>${o.tenPercent ? "true" : "false"}</isTenPercentOwner>
      <isOther>0</isOther>${o.title ? `\n      <officerTitle>${esc(o.title)}</officerTitle>` : ""}
    </reportingOwnerRelationship>
  </reportingOwner>${f.form === "4/A" ? `\n  <dateOfOriginalSubmission>${f.periodOfReport}</dateOfOriginalSubmission>` : ""}
  <nonDerivativeTable>${nonDerivative}
  </nonDerivativeTable>
  <derivativeTable>${derivative}
  </derivativeTable>
  <footnotes>${Object.entries(f.footnotes)
    .map(([id, text]) => `\n    <footnote id="${id}">${esc(text)}</footnote>`)
    .join("")}
  </footnotes>
  <remarks></remarks>
  <ownerSignature>
    <signatureName>/s/ ${esc(o.name)}, by attorney-in-fact</signatureName>
    <signatureDate>${f.filingDate}</signatureDate>
  </ownerSignature>
</ownershipDocument>
`;
}

/** Other forms a registrant files, interleaved with the Form 4s as in the real `recent` block. */
const OTHER_FORMS = ["10-Q", "8-K", "SC 13G/A", "144"];

function submissions(r: SimRegistrant) {
  const rows = [
    ...r.filings.map((f) => ({
      accessionNumber: f.accession,
      filingDate: f.filingDate,
      reportDate: f.periodOfReport,
      acceptanceDateTime: f.acceptance,
      form: f.form,
      primaryDocument: f.primaryDocument,
      primaryDocDescription: "FORM 4",
    })),
    ...r.filings
      .filter((_, i) => i % 4 === 0)
      .map((f, i) => ({
        accessionNumber: f.accession.replace(
          /-(\d{6})$/,
          (_, n: string) => `-${String(Number(n) + 5000).padStart(6, "0")}`,
        ),
        filingDate: f.filingDate,
        reportDate: f.periodOfReport,
        acceptanceDateTime: f.acceptance.replace("T21:", "T20:"),
        form: OTHER_FORMS[i % OTHER_FORMS.length] as string,
        primaryDocument: `d${f.accession.slice(-6)}.htm`,
        primaryDocDescription: "",
      })),
  ].sort((a, b) => (a.acceptanceDateTime < b.acceptanceDateTime ? 1 : -1));
  const column = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((row) => row[k]);
  return {
    cik: String(r.cik),
    entityType: "operating",
    sic: "3571",
    sicDescription: "Electronic Computers",
    insiderTransactionForOwnerExists: 0,
    insiderTransactionForIssuerExists: r.filings.length ? 1 : 0,
    name: r.name,
    tickers: [r.ticker],
    exchanges: ["Nasdaq"],
    ein: "942404110",
    category: "Large accelerated filer",
    fiscalYearEnd: "0928",
    stateOfIncorporation: "CA",
    phone: "(408) 996-1010",
    filings: {
      recent: {
        accessionNumber: column("accessionNumber"),
        filingDate: column("filingDate"),
        reportDate: column("reportDate"),
        acceptanceDateTime: column("acceptanceDateTime"),
        act: rows.map(() => "34"),
        form: column("form"),
        fileNumber: rows.map(() => ""),
        filmNumber: rows.map(() => ""),
        items: rows.map(() => ""),
        size: rows.map(() => 4893),
        isXBRL: rows.map(() => 0),
        isInlineXBRL: rows.map(() => 0),
        primaryDocument: column("primaryDocument"),
        primaryDocDescription: column("primaryDocDescription"),
      },
      files: [],
    },
  };
}

/** EDGAR wants "Company Name contact@example.com": a declared agent names a contact. */
const declared = (req: IncomingMessage) => /\S+@\S+\.\S+/.test(req.headers["user-agent"] ?? "");

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}

/** `perSecond`: the fair-access limit (EDGAR's is 10); the hardening nets' own simulator raises it. */
export async function startEdgarSim(opts: { port?: number; perSecond?: number } = {}): Promise<EdgarSim> {
  const perSecond = opts.perSecond ?? 10;
  const control = new SimulatorControl<EdgarFaultMode>();
  /** Request times of the last second: EDGAR's 10-per-second rule. */
  let window: number[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    if (await control.handle(req, res, url)) return;
    const path = url.pathname;
    if (!declared(req)) return sendHtml(res, 403, UNDECLARED);
    const now = Date.now();
    window = [...window.filter((t) => now - t < 1000), now];
    if (window.length > perSecond) return sendHtml(res, 403, RATE_EXCEEDED);

    const subs = /^\/submissions\/CIK(\d{10})\.json$/.exec(path);
    const doc = /^\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/([^/]+\.xml)$/.exec(path);
    const cik = subs?.[1] ? String(Number(subs[1])) : (doc?.[1] ?? "");
    control.count(`${subs ? "submissions" : doc ? "form4" : path} ${cik}`);
    const fault = path === "/files/company_tickers.json" ? control.take("tickers") : control.take(cik);
    if (control.transport(fault, res)) return;
    if (fault === "timeout") return control.hold(res);
    if (fault === "500") return sendHtml(res, 500, "<html><body>Internal Server Error</body></html>");
    if (fault === "ratelimit") return sendHtml(res, 403, RATE_EXCEEDED);
    if (fault === "error200") return sendHtml(res, 200, "<html><body><h1>Service Unavailable</h1></body></html>");

    if (path === "/files/company_tickers.json") {
      const entries = [...simRegistrants().values()].flatMap((r) => [
        { cik_str: r.cik, ticker: r.ticker, title: r.name },
      ]);
      // Alphabet's two classes share one CIK.
      entries.push({ cik_str: 1652044, ticker: "GOOG", title: "Alphabet Inc." });
      return sendJson(res, 200, Object.fromEntries(entries.map((e, i) => [String(i), e])));
    }
    const registrant = fault === "unknown" ? undefined : simRegistrants().get(Number(cik));
    if (subs) {
      if (!registrant) return sendHtml(res, 404, "<html><body>Not Found</body></html>");
      if (fault === "malformed") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end('{"cik":"320193","filings":{"recent":{"accessionNumber":[');
      }
      return sendJson(res, 200, submissions(registrant));
    }
    if (doc && registrant) {
      const accession = doc[2] ?? "";
      const filing = registrant.filings.find((f) => f.accession.replaceAll("-", "") === accession);
      const document = filing?.primaryDocument.replace(/^xslF345X0\d\//, "");
      if (!filing || document !== doc[3]) return sendHtml(res, 404, "<html><body>Not Found</body></html>");
      const xml = form4Xml(registrant, filing);
      res.writeHead(200, { "content-type": "text/xml" });
      return res.end(fault === "malformed" ? xml.slice(0, xml.indexOf("<nonDerivativeTable>") + 40) : xml);
    }
    sendHtml(res, 404, "<html><body>Not Found</body></html>");
  });
  return control.listen(server, opts.port);
}
