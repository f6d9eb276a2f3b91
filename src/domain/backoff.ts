/**
 * The one rule of waiting longer after each failure: the wait before try `attempt` + 1 (attempts
 * count from 1) grows by `factor` from `first`, up to `cap`. Pure; the callers choose the numbers.
 * @example backoff(3, { first: 30, factor: 3, cap: 3600 }) // 270
 */
export function backoff(
  attempt: number,
  { first, factor, cap }: { first: number; factor: number; cap: number },
): number {
  return Math.min(cap, first * factor ** Math.max(0, attempt - 1));
}
