import type { Deps } from "../../deps";
import type { NewsArticle } from "../../domain/news/article";
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

/**
 * Asks every configured news provider at once, each within its own timeout (cut to the request's
 * deadline), and gathers what came back: a failing or slow provider contributes nothing and is named.
 */
export async function fanOut(ctx: Deps, q: NewsQuery): Promise<FanOut> {
  const providers = ctx.providers.news;
  const asked = providers.filter((p) => p.configured);
  const results = await Promise.allSettled(asked.map((p) => p.fetch(q)));
  const out: FanOut = {
    articles: [],
    answered: [],
    failures: [],
    notConfigured: providers.filter((p) => !p.configured).map((p) => p.name),
  };
  results.forEach((r, i) => {
    const name = (asked[i] as (typeof asked)[number]).name;
    if (r.status === "fulfilled") {
      out.articles.push(...r.value);
      if (r.value.length > 0) out.answered.push(name);
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
