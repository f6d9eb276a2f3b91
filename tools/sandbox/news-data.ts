import type { Clock } from "../../src/clock";
import { companyName } from "../../src/domain/news/query";
import { FULL_CATALOGUE } from "../db/seed-indices";

/**
 * The news the sandbox's seven providers tell, by story: each story is one event with its headline,
 * publisher and time, told by several providers in their own ways (another URL, a utm-tagged copy,
 * the aggregator's " - Publisher" suffix, punctuation or case changed). `story` is the label of a
 * duplicate group: two articles are the same news exactly when they carry the same story id.
 */
export interface SimStory {
  /** `<TICKER>#<n>`: unique per ticker and template. */
  id: string;
  ticker: string;
  language: "en" | "fr" | "de";
  headline: string;
  summary: string;
  publisher: { name: string; domain: string };
  author: string;
  /** Epoch milliseconds. */
  publishedMs: number;
  /** The publisher's own address of the story. */
  url: string;
}

const PUBLISHERS: Record<SimStory["language"], { name: string; domain: string }[]> = {
  en: [
    { name: "Reuters", domain: "www.reuters.com" },
    { name: "Bloomberg", domain: "www.bloomberg.com" },
    { name: "Financial Times", domain: "www.ft.com" },
    { name: "MarketWatch", domain: "www.marketwatch.com" },
    { name: "CNBC", domain: "www.cnbc.com" },
  ],
  fr: [
    { name: "Les Echos", domain: "www.lesechos.fr" },
    { name: "Le Figaro", domain: "www.lefigaro.fr" },
    { name: "Boursorama", domain: "www.boursorama.com" },
  ],
  de: [
    { name: "Handelsblatt", domain: "www.handelsblatt.com" },
    { name: "Börsen-Zeitung", domain: "www.boersen-zeitung.de" },
    { name: "FAZ", domain: "www.faz.net" },
  ],
};

/** Distinct events: no two templates are near each other once a company's name is in them. */
const TEMPLATES: Record<SimStory["language"], [string, string][]> = {
  en: [
    [
      "{c} shares rise after quarterly results beat forecasts",
      "Revenue and margins came in above analysts' estimates.",
    ],
    ["{c} raises full-year outlook as demand holds up", "Management now expects higher sales growth for the year."],
    [
      "Analysts lift price targets on {c} after investor day",
      "Several brokers raised their targets following the event.",
    ],
    ["{c} announces new share buyback programme", "The board approved repurchases over the next twelve months."],
    [
      "{c} chief executive says pricing power remains strong",
      "In an interview, the CEO pointed to resilient customers.",
    ],
    ["Regulators open review of {c} acquisition plan", "Competition authorities will examine the proposed deal."],
    ["{c} to cut costs in restructuring of European unit", "The plan includes job reductions and site closures."],
    ["Bond investors snap up {c} debt sale", "The multi-tranche offering was several times oversubscribed."],
    ["Why {c} stock fell today", "Shares slipped as investors weighed comments from management."],
    ["{c} signs long-term supply deal with major partner", "The agreement secures components for the next decade."],
    ["{c} faces lawsuit over patent infringement claims", "A rival accuses the company of using protected technology."],
    ["Hedge funds build short positions against {c}", "Filings show a rise in bets against the shares."],
    [
      "{c} hires former rival executive as finance chief",
      "The new CFO joins from a competitor at the start of next year.",
    ],
    ["Dividend hike lifts {c} in early trading", "The company increased its quarterly payout by a tenth."],
    ["{c} opens largest factory yet in southeast Asia", "The plant will employ about two thousand people."],
    [
      "Credit agency upgrades {c} on stronger cash generation",
      "The rating moves one notch higher with a stable outlook.",
    ],
    ["Top shareholder trims stake in {c}", "The investor sold shares through an accelerated bookbuild."],
    [
      "{c} unveils artificial intelligence tools for customers",
      "The products will be available to enterprise clients.",
    ],
    ["Strike at {c} plant enters second week", "Unions are demanding higher wages to offset inflation."],
    [
      "Options traders position for big move in {c} ahead of earnings",
      "Implied volatility has climbed to a three-month high.",
    ],
    ["{c} completes sale of non-core division", "Proceeds will be used to pay down debt."],
    ["Currency headwinds weigh on {c} overseas sales", "A stronger dollar reduced reported revenue abroad."],
    ["{c} board backs chairman amid activist pressure", "An activist fund had called for changes at the top."],
    ["Supply chain snags delay {c} product launch", "The new model will now ship in the spring."],
  ],
  fr: [
    [
      "{c} : le chiffre d'affaires progresse plus que prévu au troisième trimestre",
      "Les ventes dépassent les attentes des analystes.",
    ],
    ["{c} relève ses objectifs annuels", "La direction se montre plus confiante pour la fin de l'exercice."],
    ["Les analystes relèvent leurs objectifs de cours sur {c}", "Plusieurs courtiers saluent la solidité des marges."],
    ["{c} annonce un nouveau programme de rachat d'actions", "Le conseil a approuvé des rachats sur douze mois."],
    ["Grève dans une usine de {c} en Normandie", "Les syndicats réclament une hausse des salaires."],
    ["{c} cède une filiale non stratégique", "Le produit de la cession servira à réduire la dette."],
    [
      "L'Autorité de la concurrence examine le projet de rachat de {c}",
      "Une enquête approfondie pourrait durer plusieurs mois.",
    ],
    ["{c} nomme un nouveau directeur financier", "Il prendra ses fonctions au début de l'année prochaine."],
    ["Le dividende de {c} augmente de dix pour cent", "Les actionnaires saluent la hausse de la rémunération."],
    ["{c} investit dans une nouvelle usine en France", "Le site emploiera près de mille personnes."],
  ],
  de: [
    ["{c} übertrifft die Erwartungen im dritten Quartal", "Umsatz und Marge lagen über den Prognosen der Analysten."],
    ["{c} hebt die Jahresprognose an", "Der Vorstand rechnet nun mit einem stärkeren Wachstum."],
    ["Analysten erhöhen die Kursziele für {c}", "Mehrere Banken sehen weiteres Potenzial für die Aktie."],
    ["{c} kündigt ein neues Aktienrückkaufprogramm an", "Der Rückkauf soll über zwölf Monate laufen."],
    ["Streik in einem Werk von {c} geht weiter", "Die Gewerkschaft fordert höhere Löhne."],
    ["{c} verkauft eine Tochtergesellschaft", "Der Erlös soll zum Schuldenabbau verwendet werden."],
    ["Kartellamt prüft die Übernahmepläne von {c}", "Die Prüfung könnte mehrere Monate dauern."],
    ["{c} beruft einen neuen Finanzvorstand", "Er wechselt zu Beginn des neuen Jahres."],
    ["{c} erhöht die Dividende um zehn Prozent", "Die Aktionäre profitieren von der starken Bilanz."],
    ["{c} baut ein neues Werk in Sachsen", "Dort sollen rund tausend Arbeitsplätze entstehen."],
  ],
};

const AUTHORS = ["Anna Weber", "James Carter", "Claire Dubois", "Marco Rossi", "Sophie Martin", "Lukas Braun"];

/** The languages a listing's news is written in: its market's and English. */
function languagesOf(exchange: string | null): SimStory["language"][] {
  if (exchange === "PAR" || exchange === "BRU") return ["en", "fr"];
  if (exchange === "XETRA") return ["en", "de"];
  return ["en"];
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const slug = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

/** The catalogue listing of a ticker: its company name and exchange. */
function listingOf(ticker: string): { name: string; exchange: string | null } | null {
  for (const inst of FULL_CATALOGUE)
    for (const l of inst.listings) if (l.ticker === ticker) return { name: inst.name, exchange: l.exchange ?? null };
  return null;
}

/**
 * The stories of a catalogue ticker, newest first, as of the clock's current hour (stable within
 * it): every template of its languages, a few hours apart. None for a ticker outside the catalogue.
 */
export function storiesOf(ticker: string, clock: Clock): SimStory[] {
  const listing = listingOf(ticker);
  if (!listing) return [];
  const company = companyName(listing.name);
  const hourMs = Math.floor(clock.now().getTime() / 3_600_000) * 3_600_000;
  const out: SimStory[] = [];
  let n = 0;
  for (const language of languagesOf(listing.exchange)) {
    TEMPLATES[language].forEach(([headline, summary], i) => {
      const h = hash(`${ticker}:${language}:${i}`);
      const publishers = PUBLISHERS[language];
      const publisher = publishers[h % publishers.length] as SimStory["publisher"];
      const title = headline.replace("{c}", company);
      out.push({
        id: `${ticker}#${n++}`,
        ticker,
        language,
        headline: title,
        summary,
        publisher,
        author: AUTHORS[h % AUTHORS.length] as string,
        publishedMs: hourMs - 3_600_000 - (i * 4 + (language === "en" ? 0 : 2)) * 3_600_000 - (h % 50) * 60_000,
        url: `https://${publisher.domain}/markets/${slug(title)}-${h % 100_000}`,
      });
    });
  }
  return out.sort((a, b) => b.publishedMs - a.publishedMs);
}
