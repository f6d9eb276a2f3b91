import type { NewsArticle } from "../../domain/news/article";
import { cleanArticle } from "../../domain/news/clean";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import type { NewsQuery } from "../../providers/news/client";

export interface FanOut {
  articles: NewsArticle[];
  /** Providers that returned at least one article. */
  answered: string[];
  /** Providers that failed (timeout, refusal, bad answer), with the reason; never those that had nothing. */
  failures: { provider: string; reason: string }[];
  /** Keyed providers without their key: not asked. */
  notConfigured: string[];
}

/** A Worker keeps at most six connections open at once; a seventh fetch would wait with its timeout running. */
const AT_ONCE = 6;

/** Runs `jobs` at most `limit` at a time, each settled in its own slot (so each one's timeout starts when it does). */
async function settledInSlots<T>(jobs: (() => Promise<T>)[], limit: number): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(jobs.length);
  let next = 0;
  const slot = async () => {
    while (next < jobs.length) {
      const i = next++;
      try {
        results[i] = { status: "fulfilled", value: await (jobs[i] as () => Promise<T>)() };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, slot));
  return results;
}

/**
 * Asks every configured news provider (six at a time), each within its own timeout (cut to the
 * request's deadline), and gathers what came back, each article cleaned (no title, no http(s)
 * address or an impossible time: left out): a failing or slow provider contributes nothing and is named.
 */
export async function fanOut(ctx: Context, q: NewsQuery): Promise<FanOut> {
  const providers = ctx.providers.news;
  const asked = providers.filter((p) => p.configured);
  const results = await settledInSlots(
    asked.map((p) => () => p.fetch(q)),
    AT_ONCE,
  );
  const now = ctx.clock.now();
  const out: FanOut = {
    articles: [],
    answered: [],
    failures: [],
    notConfigured: providers.filter((p) => !p.configured).map((p) => p.name),
  };
  results.forEach((r, i) => {
    const name = (asked[i] as (typeof asked)[number]).name;
    if (r.status === "fulfilled") {
      const clean = r.value.map((a) => cleanArticle(a, now)).filter((a): a is NewsArticle => a !== null);
      out.articles.push(...clean);
      if (clean.length > 0) out.answered.push(name);
      return;
    }
    // "No such symbol" is an answer with nothing in it, not a failure.
    if (r.reason instanceof ProviderError && r.reason.failure === "not_found") return;
    if (!(r.reason instanceof ProviderError)) console.warn("news provider threw", name, String(r.reason));
    out.failures.push({
      provider: name,
      reason: r.reason instanceof ProviderError ? r.reason.message : `${name}: unexpected failure`,
    });
  });
  return out;
}
