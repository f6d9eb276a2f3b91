import type { Resolution } from "./indicators/request";

/** The single-condition screen's comparisons (spec: the screener's `operator`). */
export const OPERATORS = {
  lt: (a: number, b: number) => a < b,
  gt: (a: number, b: number) => a > b,
  lte: (a: number, b: number) => a <= b,
  gte: (a: number, b: number) => a >= b,
} as const;
export type Operator = keyof typeof OPERATORS;

export interface ScreenQuery {
  indicator: string;
  operator: Operator;
  value: number;
  resolution: Resolution;
  period: number;
  limit: number;
  /** `queued` asks for the day's queued run even when the screen could be answered at once. */
  mode: "auto" | "queued";
}
