/**
 * When a screen of a length no snapshot holds is answered at once and when it is queued, and how a
 * queued one is cut into shares. Pure.
 */

/**
 * Daily bars a synchronous screen reads at most: above it, the screen is queued. 2,500,000 bars is
 * about 2 s of reading and computing on the embedded database (10,277 instruments of 500 bars took
 * 11.1 s with RSI): RSI(21) over ten years answers at once up to 961 instruments, SMA(30) (31
 * bars) up to 80,645.
 */
export const SYNC_SCREEN_MAX_BARS = 2_500_000;

/** Daily bars one message of a queued screen reads: a Worker invocation's comfortable share. */
export const RUN_SHARE_BARS = 500_000;

/** Queued screens started per UTC day, over all keys: what any key's requests can cost the database. */
export const SCREEN_RUNS_PER_DAY = 50;

/**
 * The bars an instrument holds at most, for the estimate: ten years of sessions, what an ingestion
 * stores (a read of more bars, a monthly recursion's, finds no more than these).
 */
export const STORED_BARS_ESTIMATE = 2_600;

/** The daily bars a screen reading at most `bars` of each instrument reads of one, by the estimate. */
const barsRead = (bars: number) => Math.max(1, Math.min(bars, STORED_BARS_ESTIMATE));

/** Whether a screen reading at most `bars` daily bars of each of `instruments` instruments is answered at once. */
export const answeredAtOnce = (instruments: number, bars: number): boolean =>
  instruments * barsRead(bars) <= SYNC_SCREEN_MAX_BARS;

/** The instruments a synchronous screen of at most `bars` bars each may cover: the stated cap. */
export const syncInstrumentCap = (bars: number): number => Math.floor(SYNC_SCREEN_MAX_BARS / barsRead(bars));

/** The shares a queued screen is cut into (asset id modulo the count), each about RUN_SHARE_BARS bars. */
export const runShares = (instruments: number, bars: number): number =>
  Math.max(1, Math.ceil((instruments * barsRead(bars)) / RUN_SHARE_BARS));

/** One run per indicator, parameters, resolution and day. */
export const runKey = (r: { indicator: string; params: string; resolution: string; day: string }): string =>
  [r.indicator, r.params, r.resolution, r.day].join("|");

/** A message of the `screen-runs` queue: one share of a run. */
export interface ScreenRunMessage {
  runId: number;
  share: number;
}
