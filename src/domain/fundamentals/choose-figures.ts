import { DELAYED } from "../provider-names";
import { highlightTexts, profileOf, type Summary } from "./delayed-figures";
import type { Sourced } from "./eodhd/place";
import { SCRAPED_FIELDS } from "./fields";
import { databaseLabel, type Json, type Outcome } from "./rendered-outcome";
import type { ScrapedPage, ScrapeTarget } from "./scraped-page";
import { driftVerdict, historyOf, type Verdict, validate } from "./validation";

const isPage = (x: ScrapedPage | Outcome): x is ScrapedPage => "figures" in x;

/**
 * A page's three figures through the validation layer, against the delayed provider's figure of
 * this request and the instrument's stored history. A page about another ISIN gives no figure at
 * all (spec /fundamental rule 4), and an EPS in another currency than the listing's is not its EPS.
 */
function judgePage(
  page: ScrapedPage,
  target: ScrapeTarget,
  delayedValues: ReadonlyMap<string, number>,
  history: readonly Record<string, number | string | null>[],
): { outcome: Outcome; verdicts: Verdict[]; values: Map<string, number> } {
  const values = new Map<string, number>();
  if (page.isin !== target.isin) {
    return {
      outcome: {
        status: "error",
        entry: {
          status: "error",
          url: page.url,
          isin: page.isin,
          error: page.isin
            ? `the page is about ${page.isin}, not ${target.isin}: its figures are not used`
            : `the page does not say which instrument it is about: its figures are not used`,
        },
      },
      verdicts: [],
      values,
    };
  }
  const verdicts: Verdict[] = [];
  const figures: Json = {};
  for (const field of SCRAPED_FIELDS) {
    const f = page.figures[field];
    if (!f) continue;
    if (field === "eps_ttm" && f.currency && f.currency !== target.currency) {
      figures[field] = {
        raw: f.value,
        value: null,
        status: "not_used",
        reason: `EPS in ${f.currency}; the listing is quoted in ${target.currency}`,
      };
      continue;
    }
    const peer = delayedValues.get(field);
    const v = validate(
      { provider: page.provider, field, value: f.value, unit: f.unit },
      { peers: peer === undefined ? [] : [peer], history: historyOf(history, field) },
    );
    verdicts.push(v);
    figures[field] = { raw: v.raw, value: v.value, status: v.status, reason: v.reason };
    if (v.status === "valid" && v.value !== null) values.set(field, v.value);
  }
  return {
    outcome: {
      status: "ok",
      answer: page,
      entry: { status: "ok", url: page.url, isin: page.isin, name: page.name, basis: page.basis, figures },
    },
    verdicts,
    values,
  };
}

/** A snapshot stored by the deep enrichment, as the choice of figures reads it. */
export interface StoredFigures {
  fetchDate: string;
  highlights: Record<string, number | string | null>;
  analystRatings: Record<string, number | string | null>;
  profile: Record<string, number | string | null>;
}

export interface FigureChoice {
  /** Each figure of the document with the source it was taken from. */
  table: Map<string, Sourced>;
  /** What each asked provider answered, the delayed provider first. */
  outcomes: Record<string, Outcome>;
  /** The verdicts on the scraped pages' figures and their layout drifts, for storage. */
  scrapedVerdicts: Verdict[];
}

/**
 * Which source gives each figure of the document (spec /fundamental rule 1): the delayed
 * provider's validated figures of this request, then those stored by the deep enrichment (newest
 * first), then the scraped pages' trailing figures, each page judged against the delayed
 * provider's figures and the stored history (snapshots fetched before `today`).
 */
export function chooseFigures(input: {
  delayed: { outcome: Outcome; verdicts: readonly Verdict[]; summary: Summary | null } | null;
  /** Newest first. */
  snapshots: readonly StoredFigures[];
  pages: readonly { name: string; page: ScrapedPage | Outcome }[];
  target: ScrapeTarget;
  today: string;
}): FigureChoice {
  const { delayed, snapshots, target, today } = input;
  const history = snapshots.filter((s) => s.fetchDate < today).map((s) => s.highlights);

  // Rule 1 (a): the delayed provider's validated figures of this request.
  const table = new Map<string, Sourced>();
  const summary = delayed?.summary ?? null;
  const delayedValues = new Map<string, number>();
  if (delayed && summary) {
    for (const v of delayed.verdicts) {
      if (v.status === "valid" && v.value !== null) {
        table.set(v.field, { value: v.value, label: DELAYED });
        delayedValues.set(v.field, v.value);
      }
    }
    for (const [field, value] of Object.entries({ ...highlightTexts(summary), ...profileOf(summary) }))
      if (value !== null) table.set(field, { value, label: DELAYED });
  }
  // Rule 1 (b): figures stored by the deep enrichment, newest first.
  for (const s of snapshots) {
    for (const [field, value] of Object.entries({ ...s.highlights, ...s.analystRatings, ...s.profile })) {
      if (value !== null && !table.has(field)) table.set(field, { value, label: databaseLabel(s.fetchDate) });
    }
  }
  // Rule 1 (c): scraped pages, for trailing P/E, EPS and dividend yield only.
  const outcomes: Record<string, Outcome> = {};
  if (delayed) outcomes[DELAYED] = delayed.outcome;
  const scrapedVerdicts: Verdict[] = [];
  for (const { name, page } of input.pages) {
    if (!isPage(page)) {
      outcomes[name] = page;
      continue;
    }
    const judged = judgePage(page, target, delayedValues, history);
    outcomes[name] = judged.outcome;
    scrapedVerdicts.push(...judged.verdicts, ...page.drifts.map(driftVerdict));
    for (const [field, value] of judged.values)
      if (!table.has(field)) table.set(field, { value, label: name, trailingOnly: true });
  }
  return { table, outcomes, scrapedVerdicts };
}
