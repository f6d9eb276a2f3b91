/**
 * A key's request budget: a fixed window of RATE_WINDOW_SECONDS aligned to the clock's minutes, so
 * that every isolate and the answer's headers agree on when it resets. Refused requests spend nothing.
 */
export const RATE_WINDOW_SECONDS = 60;
const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

export interface RateWindow {
  /** Epoch ms the window began. */
  start: number;
  used: number;
}

/** What one request was told: whether it may go on, and the figures of the RateLimit headers. */
export interface RateVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/**
 * Spends one request of `limit` from `window` at `nowMs`: the window to keep and the verdict.
 * @example spendFrom(null, 2, 30_000).verdict // { allowed: true, limit: 2, remaining: 1, resetSeconds: 30 }
 */
export function spendFrom(
  window: RateWindow | null,
  limit: number,
  nowMs: number,
): { window: RateWindow; verdict: RateVerdict } {
  // Never back to an earlier window: an isolate whose clock is behind counts in the current one.
  const aligned = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const start = window && window.start > aligned ? window.start : aligned;
  const current = window && window.start === start ? window : { start, used: 0 };
  const allowed = current.used < limit;
  const used = allowed ? current.used + 1 : current.used;
  const resetSeconds = Math.max(1, Math.ceil((start + WINDOW_MS - nowMs) / 1000));
  return {
    window: { start, used },
    verdict: { allowed, limit, remaining: Math.max(0, limit - used), resetSeconds },
  };
}
