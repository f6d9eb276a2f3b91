import { type FetchedFiling, saveFilings, storedAccessions } from "../../db/repositories/insider";
import { parseForm4 } from "../../domain/insider/form4";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** The newest Form 4 filings looked at per call (EDGAR's `recent` block holds up to a thousand). */
const MAX_FILINGS = 60;
/** Time kept back from the request's deadline for storing and answering. */
const RESERVE_MS = 2000;

/** What reading new filings came to; `transient`: it stopped on a failure a later call may not meet. */
export interface Progress {
  checked: number;
  fetched: number;
  note?: string;
  transient?: boolean;
}

/** Failures that say nothing about the filing itself: stop, and leave the rest for a later call. */
const TRANSIENT = new Set(["rate_limited", "unavailable", "timeout", "deadline"]);

/**
 * Reads the registrant's newest Form 4 filings that are not stored yet (paced, within the
 * request's deadline) and stores them; a transient failure stops it, keeping what was read.
 */
export async function fetchNewFilings(ctx: Context, cik: number): Promise<Progress> {
  const edgar = ctx.providers.edgar;
  const refs = (await edgar.recentForm4(cik)).slice(0, MAX_FILINGS);
  const stored = await storedAccessions(
    ctx.db,
    cik,
    refs.map((r) => r.accession),
  );
  // Oldest first, so an amendment is read after the filing it amends.
  const fresh = refs.filter((r) => !stored.has(r.accession)).reverse();
  const fetched: FetchedFiling[] = [];
  const skipped: string[] = [];
  let stop: string | undefined;
  for (const [i, ref] of fresh.entries()) {
    if (ctx.deadline.remainingMs() < RESERVE_MS) {
      stop = `${fresh.length - i} filings left for a later call (the request's deadline)`;
      break;
    }
    try {
      const document = parseForm4(await edgar.form4Xml(ref));
      if (document.issuerCik !== null && document.issuerCik !== String(cik)) {
        skipped.push(`${ref.accession} (about issuer ${document.issuerCik})`);
        continue;
      }
      fetched.push({ ...ref, document });
    } catch (err) {
      if (err instanceof ProviderError && TRANSIENT.has(err.failure)) {
        // What was read so far is kept; the rest waits for a later call.
        stop = `${fresh.length - i} filings left for a later call (${err.message})`;
        break;
      }
      if (err instanceof ProviderError && err.failure !== "not_found" && err.failure !== "bad_response") throw err;
      // A filing EDGAR does not have, or that is not a readable ownershipDocument, does not hold up the others.
      skipped.push(ref.accession);
    }
  }
  await saveFilings(ctx.db, cik, fetched, ctx.clock.now());
  const notes = [stop, skipped.length ? `unreadable filings skipped: ${skipped.join(", ")}` : undefined].filter(
    Boolean,
  );
  return {
    checked: refs.length,
    fetched: fetched.length,
    ...(notes.length ? { note: notes.join("; ") } : {}),
    ...(stop ? { transient: true } : {}),
  };
}
