import { ServiceError } from "../../domain/errors";
import type { Resolution } from "../../domain/indicators/request";
import type { Context } from "../../platform/context";
import { getEod } from "../eod/get-eod";
import { getDeepFundamentals } from "../fundamentals/get-deep";

/**
 * A workspace user cannot call the routes that store what a widget reads (an ingestion, the deep
 * enrichment): the first view of a ticker stores it, as GET /eod does for its own answer, and the
 * widget is computed again. Anything else that fails stays an error.
 */

const missing = (err: unknown, code: "NOT_FOUND" | "NO_DATA") => err instanceof ServiceError && err.code === code;

/**
 * Runs a technical computation; when the ticker has no daily prices stored (`lacksPrices` on the
 * answer, or a 404), ingests its history and runs it once more. 1-minute bars come from the stream only.
 */
export async function withStoredPrices<T>(
  ctx: Context,
  q: { ticker: string; resolution: Resolution },
  run: () => Promise<T>,
  lacksPrices: (answer: T) => boolean = () => false,
): Promise<T> {
  if (q.resolution === "1min") return run();
  try {
    const answer = await run();
    if (!lacksPrices(answer)) return answer;
  } catch (err) {
    if (!missing(err, "NOT_FOUND")) throw err;
  }
  // The EOD route's own path: the listing chosen as it chooses it, ten years on a first ingestion.
  await getEod({ ctx, input: { ticker: q.ticker, period: "1y", fmt: "json", order: "a" } });
  return run();
}

/** Runs a valuation; when the enrichment it reads is not stored (404 naming it), enriches the ticker and runs it once more. */
export async function withEnrichment<T>(ctx: Context, ticker: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!missing(err, "NO_DATA")) throw err;
  }
  await getDeepFundamentals({ ctx, input: { ticker, refresh: false, sections: ["highlights"] } });
  return run();
}
