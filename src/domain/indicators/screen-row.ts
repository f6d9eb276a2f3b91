import type { Bar } from "../bars";
import { paramsKey, SNAPSHOT_SET, type Snapshot } from "./snapshots";

/**
 * A listing's screen row: its snapshots' values side by side in SNAPSHOT_SET order, with the last
 * close, so that a screen of several conditions tests each instrument in one row. Pure.
 */
export interface ScreenRow {
  asOf: string;
  close: number;
  /** null where the snapshot is not computable or not a number: a condition on it is false. */
  values: (number | null)[];
  windowBars: number;
  formula: number;
}

/** The row of a listing's snapshots (snapshotsOf's, in SNAPSHOT_SET order) and its last bar; null without snapshots. */
export function screenRowOf(snapshots: readonly Snapshot[], last: Bar | undefined): ScreenRow | null {
  const first = snapshots[0];
  if (!first || !last) return null;
  return {
    asOf: first.asOf,
    close: last.close,
    values: snapshots.map((s) => (s.computable ? s.value : null)),
    windowBars: first.windowBars,
    formula: first.formula,
  };
}

/**
 * The place of a snapshotted indicator in a screen row's values, 1-based as SQL arrays count;
 * null when it is not snapshotted.
 */
export function screenRowPosition(indicator: string, params: string): number | null {
  const i = SNAPSHOT_SET.findIndex((e) => e.spec.name === indicator && paramsKey(e.params) === params);
  return i < 0 ? null : i + 1;
}
