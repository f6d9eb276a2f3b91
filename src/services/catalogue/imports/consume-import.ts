import { type QueuedLine, queuedLines, settleLine } from "../../../db/repositories/catalogue-imports";
import { readListingsWithSpans } from "../../../db/repositories/listing-prices";
import type { ImportOutcome } from "../../../db/schema";
import type { ImportMessage } from "../../../domain/catalogue-import";
import { retryDelaySeconds } from "../../../domain/catalogue-refresh";
import { ServiceError } from "../../../domain/errors";
import { tenYearsBefore } from "../../../domain/periods";
import { STREAM } from "../../../domain/provider-names";
import { type Bindings, loadConfig } from "../../../env";
import type { Context, RunWork } from "../../../platform/context";
import { ProviderError } from "../../../providers/errors";
import { ingestListing } from "../../eod/ingest-listing";
import { pacedBy } from "../../shared/provider-pace";
import { storedReason } from "../../shared/stored-reason";
import { addItem } from "../additions/add-assets";
import type { Addition } from "../additions/add-instrument";

export const IMPORT_QUEUE_NAME = "catalogue-import";
/** Deliveries of a message: the first and wrangler.toml's `max_retries` (3) more. */
export const IMPORT_MAX_ATTEMPTS = 4;

const isMessage = (b: unknown): b is ImportMessage => {
  const m = b as Partial<ImportMessage> | null;
  return typeof m?.importId === "number" && Array.isArray(m.lines) && m.lines.every((n) => Number.isInteger(n));
};

/** Errors a later attempt may mend (a provider, the database, the key's budget): the line stays queued. */
const transient = (err: unknown) =>
  err instanceof ProviderError ||
  (err instanceof ServiceError && (err.code === "UPSTREAM_UNAVAILABLE" || err.code === "RATE_LIMITED"));

/** Ingests the prices of an added instrument's listings now (paced like the refresh); a failure is logged, the next run catches up. */
async function ingestAdded(deps: Context, addition: Addition): Promise<void> {
  const ids = addition.found.listings.filter((l) => l.isActive).map((l) => l.id);
  const today = deps.clock.today();
  for (const { listing, spans } of await readListingsWithSpans(deps.db, ids, STREAM)) {
    await ingestListing({
      ctx: deps,
      input: { listing, wanted: { from: tenYearsBefore(today), to: today }, today, known: spans },
    }).catch((err: unknown) =>
      console.warn("catalogue import: prices of", listing.ticker, "not ingested:", String(err)),
    );
  }
}

/**
 * Works one queued line: added, known or refused (settled), or a failure a retry may mend (left
 * queued, its attempt counted), settled `failed` on the line's IMPORT_MAX_ATTEMPTS-th attempt
 * whatever the deliveries (a line that keeps failing never holds its import open).
 */
async function workLine(deps: Context, importId: number, line: QueuedLine, ingest: boolean): Promise<boolean> {
  const settle = (outcome: ImportOutcome, reason: string | null, isin: string | null, once = false) =>
    settleLine(deps.db, { importId, line: line.line, outcome, reason, isin, at: deps.clock.now(), once });
  try {
    const addition = await addItem(deps, { via: "import", importId }, line.item);
    // This import created the instrument, on this delivery, on another line, or on a delivery that
    // stored it and stopped before settling (the redelivery finds it known): counted once per import.
    const created = addition.found.asset.addedByImport === importId;
    if (ingest && (created || addition.status !== "known")) await ingestAdded(deps, addition);
    const refused = addition.refused.map((r) => `${r.symbol}: ${r.reason}`).join("; ") || null;
    await settle(
      created || addition.status !== "known" ? "added" : "known",
      refused,
      addition.found.asset.isin,
      created,
    );
    return true;
  } catch (err) {
    if (err instanceof ServiceError && !transient(err)) {
      await settle("refused", err.extra.reason ?? err.message, null);
      return true;
    }
    console.warn("catalogue import: line", line.line, "attempt", line.attempts + 1, "failed:", String(err));
    const why = storedReason(err);
    const last = line.attempts + 1 >= IMPORT_MAX_ATTEMPTS;
    await settle(last ? "failed" : "queued", last ? why : `attempt ${line.attempts + 1} failed, retried: ${why}`, null);
    return last;
  }
}

/**
 * The `catalogue-import` queue's consumer: each message names a few lines of an import; the lines
 * still queued in the database are worked one after another (the providers are paced in total by
 * the ProviderPacer objects, as for the refresh), each settled as soon as it is done. A message
 * with a line a retry may mend is retried with a growing delay; settled lines are never worked
 * again, so a redelivery or a resumed import repeats nothing.
 */
export async function consumeImport(batch: MessageBatch<unknown>, env: Bindings, run: RunWork): Promise<void> {
  const config = loadConfig(env);
  for (const m of batch.messages) {
    if (!isMessage(m.body)) {
      console.warn("catalogue import: a message that is not lines of an import, dropped", JSON.stringify(m.body));
      m.ack();
      continue;
    }
    const { importId, lines } = m.body;
    const pace = pacedBy(env, config.REFRESH_REQUESTS_PER_MINUTE, () => undefined);
    try {
      const settled = await run(
        async (deps) => {
          const { ingest, lines: todo } = await queuedLines(deps.db, importId, lines, deps.clock.now());
          let all = true;
          for (const line of todo) all = (await workLine(deps, importId, line, ingest)) && all;
          return all;
        },
        { pace },
      );
      if (settled) m.ack();
      else m.retry({ delaySeconds: retryDelaySeconds(m.attempts, config.REFRESH_RETRY_DELAY_SECONDS) });
    } catch (err) {
      console.warn(
        "catalogue import",
        importId,
        "lines",
        lines.join(","),
        "attempt",
        m.attempts,
        "failed:",
        String(err),
      );
      m.retry({ delaySeconds: retryDelaySeconds(m.attempts, config.REFRESH_RETRY_DELAY_SECONDS) });
    }
  }
}
