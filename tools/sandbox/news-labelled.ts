import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { deadlineIn, pinnedClock } from "../../src/clock";
import type { NewsArticle } from "../../src/domain/news/article";
import { urlKey } from "../../src/domain/news/normalise";
import { companyName, marketLanguage } from "../../src/domain/news/query";
import { loadConfig } from "../../src/env";
import { newsProviders } from "../../src/providers/news/registry";
import { FULL_CATALOGUE } from "../db/seed-indices";
import { newsSimSettings, startNewsSim } from "./news";
import { storiesOf } from "./news-data";

/**
 * `npm run news:labelled`: the labelled set of the de-duplication's quality figure. It asks the
 * seven provider clients (the service's own) for the news of a few tickers from the news simulator,
 * as of a fixed instant, and labels every article with the story it tells, which the simulator
 * knows from the article's address. Written to test/fixtures/news/labelled.json.
 */
const AS_OF = "2026-11-27T12:30:00Z";
const TICKERS = ["AAPL", "MC.PA", "SIE.DE", "BNP.PA", "JPM", "ALV.DE"];
const OUT = "test/fixtures/news/labelled.json";

function listingOf(ticker: string) {
  for (const inst of FULL_CATALOGUE)
    for (const l of inst.listings) if (l.ticker === ticker) return { name: inst.name, exchange: l.exchange ?? null };
  throw new Error(`${ticker} is not a catalogue ticker`);
}

/** The story an article tells, from its address as each simulated provider writes it. */
function storyOf(ticker: string, a: NewsArticle, clock: ReturnType<typeof pinnedClock>): string {
  const stories = storiesOf(ticker, clock);
  const google = /\/rss\/articles\/CBMi([^?]+)/.exec(a.url);
  const url = google?.[1] ? Buffer.from(google[1], "base64url").toString("utf8") : a.url;
  const yahoo = /finance\.yahoo\.com\/news\/(.+)\.html$/.exec(url);
  const story = yahoo
    ? stories.find((s) => s.url.endsWith(`/${yahoo[1]}`))
    : stories.find((s) => urlKey(s.url) === urlKey(url.replace(/\?.*$/, "")));
  if (!story) throw new Error(`no story for ${a.url}`);
  return story.id;
}

async function main() {
  const clock = pinnedClock(AS_OF);
  const sim = await startNewsSim({ clock });
  try {
    const config = loadConfig(newsSimSettings(sim.url));
    const sets = [];
    for (const ticker of TICKERS) {
      const listing = listingOf(ticker);
      const providers = newsProviders(config, deadlineIn(clock, 30_000), clock);
      const query = {
        ticker,
        company: companyName(listing.name),
        language: marketLanguage(listing.exchange),
        limit: 100,
        from: "2026-11-20",
        to: "2026-11-27",
      };
      const articles: NewsArticle[] = [];
      for (const p of providers) articles.push(...(await p.fetch(query)));
      sets.push({ ticker, articles: articles.map((a) => ({ ...a, story: storyOf(ticker, a, clock) })) });
    }
    const count = sets.reduce((n, s) => n + s.articles.length, 0);
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(
      OUT,
      `${JSON.stringify({ description: "News articles of the sandbox's seven providers, each labelled with the story it tells (its duplicate group); regenerate with npm run news:labelled", as_of: AS_OF, articles: count, sets }, null, 1)}\n`,
    );
    console.log(
      JSON.stringify({ written: OUT, sets: sets.map((s) => [s.ticker, s.articles.length]), articles: count }),
    );
  } finally {
    await sim.close();
  }
}

await main();
