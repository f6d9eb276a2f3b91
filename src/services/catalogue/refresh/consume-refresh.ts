import { closedRuns, type ItemOutcome, type RunCounts, recordItem } from "../../../db/repositories/catalogue-refresh";
import { type SnapshotState, snapshotStateQuery } from "../../../db/repositories/indicator-snapshots";
import { readListingsWithSpans } from "../../../db/repositories/listing-prices";
import { type RefreshMessage, retryDelaySeconds, verdictOf } from "../../../domain/catalogue-refresh";
import { HISTORY_BARS } from "../../../domain/indicators/history";
import { SNAPSHOT_SET } from "../../../domain/indicators/snapshots";
import { tenYearsBefore } from "../../../domain/periods";
import { STREAM } from "../../../domain/provider-names";
import { type Bindings, loadConfig } from "../../../env";
import type { Context, RunWork } from "../../../platform/context";
import { refreshEarningsIfDue } from "../../earnings/refresh-earnings";
import { ingestListing } from "../../eod/ingest-listing";
import { pacedBy } from "../../shared/provider-pace";
import { storedReason } from "../../shared/stored-reason";
import { refreshSnapshots } from "../../technical/snapshots";

export const REFRESH_QUEUE_NAME = "catalogue-refresh";
/** Deliveries of a message: the first and wrangler.toml's `max_retries` (3) more; the last failure is dead-lettered. */
export const REFRESH_MAX_ATTEMPTS = 4;
/**
 * Listings of a batch refreshed side by side (the providers are paced anyway): six, the connections
 * a Worker invocation may hold open at once; more would only queue inside the runtime.
 */
const PARALLEL = 6;

const isMessage = (b: unknown): b is RefreshMessage => {
  const m = b as Partial<RefreshMessage> | null;
  return (
    typeof m?.runId === "number" &&
    typeof m.listingId === "number" &&
    typeof m.session === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(m.session)
  );
};

/**
 * The `catalogue-refresh` queue's consumer: each message is one listing of a run, whose missing
 * bars up to the run's session are ingested through the same single-flight path as /eod (so a
 * request for the same ticker at the same moment shares the work), then recorded on the run. A
 * failure a retry may mend is retried later; on its last attempt it is recorded failed, with the
 * providers' reasons, and dead-lettered. One listing never holds back another.
 */
export async function consumeRefresh(batch: MessageBatch<unknown>, env: Bindings, run: RunWork): Promise<void> {
  const messages = batch.messages.filter((m) => {
    if (isMessage(m.body)) return true;
    console.warn("catalogue refresh: a message that is not a listing of a run, dropped", JSON.stringify(m.body));
    m.ack();
    return false;
  }) as Message<RefreshMessage>[];
  if (messages.length === 0) return;
  let progress: { runId: number; counts: RunCounts } | null = null;
  await run(async (deps) => {
    let listings: Awaited<ReturnType<typeof readListingsWithSpans>>;
    let snapshots: Map<number, SnapshotState>;
    let closed: Set<number>;
    const ids = messages.map((m) => m.body.listingId);
    try {
      const [read, states, runs] = await Promise.all([
        readListingsWithSpans(deps.db, ids, STREAM),
        snapshotStateQuery(deps.db, ids, HISTORY_BARS),
        closedRuns(deps.db, [...new Set(messages.map((m) => m.body.runId))]),
      ]);
      listings = read;
      snapshots = new Map(states.map((s) => [s.listingId, s]));
      closed = runs;
    } catch (err) {
      console.warn("catalogue refresh: listings not read, batch retried", String(err));
      for (const m of messages) {
        // The last attempt is recorded where it can be, so that the run can still end.
        if (m.attempts >= REFRESH_MAX_ATTEMPTS)
          await recordItem(deps.db, {
            runId: m.body.runId,
            listingId: m.body.listingId,
            outcome: "failed",
            reason: `the refresh failed: ${storedReason(err)}`,
            attempts: m.attempts,
            barsWritten: 0,
            providerRequests: 0,
            at: deps.clock.now(),
          }).catch(() => undefined);
        retryOrDeadLetter(m, deps);
      }
      return;
    }
    // A closed run (abandoned past its lifetime) has nothing left to do: its listings are not refreshed.
    const open = messages.filter((m) => {
      if (!closed.has(m.body.runId)) return true;
      m.ack();
      return false;
    });
    const byId = new Map(listings.map((l) => [l.listing.id, l]));
    let next = 0;
    const worker = async () => {
      while (next < open.length) {
        const m = open[next++] as Message<RefreshMessage>;
        const found = byId.get(m.body.listingId);
        const stale = snapshotsBehind(snapshots.get(m.body.listingId), found?.spans.stored?.last);
        const done = await refreshOne(env, run, m, found, stale);
        if (done) progress = { runId: m.body.runId, counts: done.counts };
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, open.length) }, worker));
  });
  if (progress) logProgress(progress);
}

/**
 * Whether a listing's snapshots are missing, incomplete, computed over another window or with
 * earlier arithmetic, or older than its last bar.
 */
function snapshotsBehind(state: SnapshotState | undefined, lastBar: string | undefined): boolean {
  if (!lastBar) return false;
  return !state || state.rows < SNAPSHOT_SET.length || !state.current || state.asOf < lastBar;
}

function logProgress({ runId, counts: c }: { runId: number; counts: RunCounts }): void {
  const done = c.refreshed + c.unchanged + c.failed;
  console.log(
    `catalogue refresh ${runId}: ${done}/${done + c.pending} done (refreshed ${c.refreshed}, unchanged ${c.unchanged}, failed ${c.failed}; ${c.barsWritten} bars, ${c.providerRequests} provider requests)`,
  );
}

/** Retries a message later, or (its attempts spent) lets the queue dead-letter it. */
function retryOrDeadLetter(m: Message<RefreshMessage>, deps: Context): void {
  m.retry({ delaySeconds: retryDelaySeconds(m.attempts, deps.config.REFRESH_RETRY_DELAY_SECONDS) });
}

type Done = { counts: RunCounts; outcome: ItemOutcome };

/** One listing of a run: ingested, recorded; answers the run's counts after it and the outcome recorded (null when none was). */
async function refreshOne(
  env: Bindings,
  run: RunWork,
  m: Message<RefreshMessage>,
  found: Awaited<ReturnType<typeof readListingsWithSpans>>[number] | undefined,
  /** Its indicator snapshots are missing or behind its stored bars (snapshotsBehind). */
  snapshotsStale: boolean,
): Promise<Done | null> {
  const { runId, listingId, session } = m.body;
  let requests = 0;
  const pace = pacedBy(env, loadConfig(env).REFRESH_REQUESTS_PER_MINUTE, () => {
    requests += 1;
  });
  return run(
    async (deps) => {
      const record = async (outcome: ItemOutcome, reason: string | null, bars = 0) => {
        const r = await recordItem(deps.db, {
          runId,
          listingId,
          outcome,
          reason,
          attempts: m.attempts,
          barsWritten: bars,
          providerRequests: requests,
          at: deps.clock.now(),
        });
        return { ...r, outcome };
      };
      try {
        if (!found) {
          const r = await record("failed", "no longer an active listing of the catalogue");
          m.ack();
          return r;
        }
        const { listing, spans } = found;
        // Forward from what is stored; a listing never ingested gets the ten years an /eod would.
        const wanted = { from: spans.stored ? spans.stored.first : tenYearsBefore(session), to: session };
        const report = await ingestListing({
          ctx: deps,
          input: { listing, wanted, today: deps.clock.today(), known: spans },
        });
        // The weekly earnings refresh rides on the daily one (paced alike); its failure is the calendar's, not the prices'.
        const earnings = await refreshEarningsIfDue(deps, listing).catch((err: unknown) => ({
          status: "failed" as const,
          reason: String(err),
        }));
        if (earnings.status === "failed")
          console.warn("catalogue refresh: earnings of", listing.ticker, "not refreshed:", earnings.reason);
        const verdict = verdictOf(report, m.attempts, REFRESH_MAX_ATTEMPTS);
        if (!verdict.done) {
          const r = await record("queued", `attempt ${m.attempts} failed, to be retried: ${verdict.reason}`);
          retryOrDeadLetter(m, deps);
          return r;
        }
        // An ingestion that wrote bars wrote their snapshots; a listing with nothing new (or whose
        // providers failed) gets them when they are missing or behind its bars (a new instance, a
        // cleanup, another window setting), before its item is recorded, so that a finished run has
        // them (unless writing them failed: logged, and the next run tries again).
        if (snapshotsStale && verdict.outcome !== "refreshed")
          await refreshSnapshots(deps, [listingId]).catch((err: unknown) =>
            console.warn("catalogue refresh: indicator snapshots of", listingId, "not written", String(err)),
          );
        const r = await record(verdict.outcome, verdict.reason, report.written);
        if (verdict.outcome === "failed" && m.attempts >= REFRESH_MAX_ATTEMPTS) retryOrDeadLetter(m, deps);
        else m.ack();
        if (r.finishedNow) console.log(`catalogue refresh ${runId} finished`);
        return r;
      } catch (err) {
        // The database or the lease failed (the providers' failures are in the report): try again later.
        console.warn("catalogue refresh: listing", listingId, "attempt", m.attempts, "failed:", String(err));
        if (m.attempts >= REFRESH_MAX_ATTEMPTS)
          await record("failed", `the refresh failed: ${storedReason(err)}`).catch(() => undefined);
        retryOrDeadLetter(m, deps);
        return null;
      }
    },
    { pace },
  );
}
