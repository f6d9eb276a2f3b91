/**
 * The conditions of a screen of several conditions (GET /technical/screen/conditions): what a
 * `where` text says, read in one pass (linear in its length, which is bounded). Pure.
 */

import { parseIndicator } from "./indicators/request";
import { isSnapshotted, paramsKey, SNAPSHOT_SET } from "./indicators/snapshots";
import type { Params } from "./indicators/spec";
import { FIGURE_FIELDS, type FigureField } from "./screen-figures";

/** A `where` is at most this long, and holds at most MAX_CONDITIONS conditions. */
export const MAX_WHERE_LENGTH = 400;
export const MAX_CONDITIONS = 8;

/** The instrument's and listing's own fields a condition may compare with `=`. */
export const TEXT_FIELDS = ["sector", "exchange", "currency", "quote_type"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const COMPARISONS = ["<=", ">=", "<", ">", "="] as const;
export type Comparison = (typeof COMPARISONS)[number];

/**
 * A number a condition compares: a snapshotted indicator's last value, the last close, or a stored
 * figure (market capitalisation, trailing P/E, dividend yield as a ratio).
 */
export type NumberTerm =
  | {
      kind: "indicator";
      key: string;
      indicator: string;
      params: Params;
      paramsKey: string;
      /** False for a length no snapshot holds: computed from the bars, or the day's queued run. */
      snapshotted: boolean;
    }
  | { kind: "close"; key: "close" }
  | { kind: "figure"; key: FigureField };

export type Condition =
  | { kind: "compare"; left: NumberTerm; op: Exclude<Comparison, "=">; right: NumberTerm | number }
  | { kind: "text"; field: TextField; value: string };

export type ParsedWhere = { ok: true; conditions: Condition[] } | { ok: false; error: string };

/** An indicator's name with every parameter, as /multi reads it: `rsi_14`, `macd_12_26_9`. */
const fullKey = (name: string, paramNames: readonly { name: string }[], params: Params) =>
  [name, ...paramNames.map((p) => String(params[p.name]))].join("_");

/** The snapshotted indicators: any number of them in a screen, and one other length at most. */
export const SNAPSHOTTED_KEYS = SNAPSHOT_SET.map((e) => fullKey(e.spec.name, e.spec.params, e.params));

const FIGURES = Object.keys(FIGURE_FIELDS) as FigureField[];

/** A number's scale words, as powers of ten: `10bn`, `500m`, `2.5k`, `1tn`; `3%` is 0.03 (yields are ratios). */
const SCALES: Record<string, number> = { k: 3, m: 6, mn: 6, b: 9, bn: 9, t: 12, tn: 12, "%": -2 };

/**
 * A number as a condition writes it, or null: `30`, `-1.5`, `1e10`, `10bn`, `3%`. The scale moves
 * the decimal exponent before the text is read, so `57%` is the double nearest 0.57, as stored.
 */
export function numberOf(text: string): number | null {
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:e([+-]?\d+))?\s*(k|mn|m|bn|b|tn|t|%)?$/i.exec(text.trim());
  if (!m?.[1]) return null;
  const exponent = Number(m[2] ?? 0) + (m[3] ? (SCALES[m[3].toLowerCase()] ?? 0) : 0);
  const n = Number(`${m[1]}e${exponent}`);
  return Number.isFinite(n) ? n : null;
}

function numberTerm(text: string): NumberTerm | string {
  const t = text.trim().toLowerCase();
  if (t === "close") return { kind: "close", key: "close" };
  if ((FIGURES as string[]).includes(t)) return { kind: "figure", key: t as FigureField };
  const parsed = parseIndicator(t);
  if (!parsed.ok)
    return `${parsed.error} (a term is close, ${FIGURES.join(", ")}, or an indicator such as rsi_14 or sma_200)`;
  const { spec, params } = parsed.value;
  // `rsi` and `rsi_14` are one term, named in full in the answer.
  if (spec.intradayOnly) return `${spec.name} is computed on intraday bars only; a screen reads daily bars`;
  return {
    kind: "indicator",
    key: fullKey(spec.name, spec.params, params),
    indicator: spec.name,
    params,
    paramsKey: paramsKey(params),
    snapshotted: isSnapshotted(spec.name, params),
  };
}

/** The first comparison in a condition, the longest at its place (`<=` before `<`). */
function splitAt(text: string): { left: string; op: Comparison; right: string } | null {
  for (let i = 0; i < text.length; i++) {
    const two = text.slice(i, i + 2);
    const op = (COMPARISONS as readonly string[]).includes(two)
      ? (two as Comparison)
      : (COMPARISONS as readonly string[]).includes(text[i] ?? "")
        ? (text[i] as Comparison)
        : null;
    if (op) return { left: text.slice(0, i), op, right: text.slice(i + op.length) };
  }
  return null;
}

/**
 * Conditions joined by `,` or ` and `: `rsi_14 < 30`, `close > sma_200`, `ema_20 > ema_50`,
 * `market_cap > 10bn`, `dividend_yield >= 3%`, `sector = Technology`, `exchange = NASDAQ`.
 * @example parseWhere("rsi < 30, close > sma_200") // two comparisons
 */
export function parseWhere(where: string): ParsedWhere {
  if (where.length > MAX_WHERE_LENGTH) return { ok: false, error: `where is at most ${MAX_WHERE_LENGTH} characters` };
  const parts = where
    .split(/,|\s+and\s+/i)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) return { ok: false, error: "where needs at least one condition, such as rsi_14 < 30" };
  if (parts.length > MAX_CONDITIONS)
    return { ok: false, error: `where takes at most ${MAX_CONDITIONS} conditions; ${parts.length} given` };
  const conditions: Condition[] = [];
  for (const part of parts) {
    const split = splitAt(part);
    if (!split) return { ok: false, error: `'${part}' compares nothing: use <, <=, >, >= or =` };
    const field = split.left.trim().toLowerCase();
    if ((TEXT_FIELDS as readonly string[]).includes(field)) {
      const value = split.right.trim();
      if (split.op !== "=" || value === "")
        return { ok: false, error: `'${part}': ${field} is compared with = and a value, such as ${field} = …` };
      conditions.push({ kind: "text", field: field as TextField, value });
      continue;
    }
    if (split.op === "=")
      return { ok: false, error: `'${part}': = compares ${TEXT_FIELDS.join(", ")}; numbers take <, <=, > or >=` };
    const left = numberTerm(split.left);
    if (typeof left === "string") return { ok: false, error: `'${part}': ${left}` };
    const rightText = split.right.trim();
    const asNumber = numberOf(rightText);
    let right: NumberTerm | number;
    if (asNumber !== null) right = asNumber;
    else {
      const term = numberTerm(rightText);
      if (typeof term === "string") return { ok: false, error: `'${part}': ${term}` };
      right = term;
    }
    conditions.push({ kind: "compare", left, op: split.op, right });
  }
  const unkept = indicatorTerms(conditions).filter((t) => !t.snapshotted);
  if (unkept.length > 1)
    return {
      ok: false,
      error: `a screen takes one indicator no snapshot holds at a time; ${unkept.map((t) => t.key).join(" and ")} are not kept (snapshots: ${SNAPSHOTTED_KEYS.join(", ")})`,
    };
  return { ok: true, conditions };
}

/** Whether any condition reads a stored figure (the screen then joins them). */
export const readsFigures = (conditions: readonly Condition[]): boolean =>
  conditions.some(
    (c) => c.kind === "compare" && [c.left, c.right].some((t) => typeof t !== "number" && t.kind === "figure"),
  );

/** The indicator terms the conditions read, each once (by its full key, one per indicator and parameters). */
export function indicatorTerms(conditions: readonly Condition[]): Extract<NumberTerm, { kind: "indicator" }>[] {
  const out = new Map<string, Extract<NumberTerm, { kind: "indicator" }>>();
  for (const c of conditions) {
    if (c.kind !== "compare") continue;
    for (const t of [c.left, c.right]) if (typeof t !== "number" && t.kind === "indicator") out.set(t.key, t);
  }
  return [...out.values()];
}
