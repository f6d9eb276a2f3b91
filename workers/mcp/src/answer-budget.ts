/**
 * Answers sized for a model: a tool's JSON past a budget of bytes keeps its leading rows of its
 * longest list, and says how many it left out and the arguments that ask for the rest. Pure.
 */

type Json = Record<string, unknown>;

/** What a cut answer says about itself. */
export interface Cut {
  /** The list that was cut, as a dotted path ("bars", "data.items"). */
  list: string;
  returned: number;
  total: number;
  /** How to ask for the rest, in words. */
  more: string;
  /** The arguments of the call that asks for what follows, where the tool can page. */
  next_arguments?: Json;
}

/** What `cut` may take of the budget (its arguments included; longer ones are left out). */
const CUT_BYTES = 2048;

const bytesOf = (v: unknown): number => new TextEncoder().encode(JSON.stringify(v)).length;

/** The lists of an object, up to three levels down, longest (in bytes) first. */
function listsOf(value: Json): { path: string[]; bytes: number }[] {
  const found: { path: string[]; bytes: number }[] = [];
  const walk = (v: unknown, path: string[]) => {
    if (path.length > 3 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      if (path.length > 0 && v.length > 1) found.push({ path, bytes: bytesOf(v) });
      return;
    }
    for (const [k, child] of Object.entries(v)) walk(child, [...path, k]);
  };
  walk(value, []);
  return found.sort((a, b) => b.bytes - a.bytes);
}

const at = (v: Json, path: string[]): unknown => path.reduce<unknown>((o, k) => (o as Json)[k], v);

/** `value` with the list at `path` cut to its first `n` rows (the rest of the object shared, not copied). */
function withRows(value: Json, path: string[], n: number): Json {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const child = value[head];
  return {
    ...value,
    [head]: rest.length === 0 ? (child as unknown[]).slice(0, n) : withRows(child as Json, rest, n),
  };
}

/** The day a row is about and whether it is a time within that day (an intraday bar), where it has one. */
function rowDay(row: unknown): { day: string; timed: boolean } | undefined {
  if (row === null || typeof row !== "object") return undefined;
  const r = row as Json;
  for (const k of ["date", "Date", "datetime", "timestamp", "published_at", "ex_date"]) {
    const v = r[k];
    if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v)) return { day: v.slice(0, 10), timed: v.length > 10 };
  }
  return undefined;
}

/** A `period` that names a window (1y, ytd, max) rather than a bar size: a window of dates replaces it. */
const WINDOW_PERIOD = /^(\d+(d|mo|y)|ytd|max)$/;

const shiftDay = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** How a tool with these parameters asks for the rows after the first `returned`. */
function howToGetMore(rows: unknown[], returned: number, params: readonly string[], args: Json): Omit<Cut, "list" | "returned" | "total"> {
  if (params.includes("offset")) {
    const offset = (Number(args.offset) || 0) + returned;
    return { more: `call again with offset=${offset}`, next_arguments: { ...args, offset } };
  }
  const first = rowDay(rows[0]);
  const end = rowDay(rows[rows.length - 1]);
  const last = rowDay(rows[returned - 1]);
  const from = params.includes("from") ? "from" : params.includes("from_date") ? "from_date" : undefined;
  const to = params.includes("to") ? "to" : params.includes("to_date") ? "to_date" : undefined;
  // Bars within a day: a window of whole days cannot start after the last bar returned.
  if (first?.timed) return { more: "ask for a shorter window or a coarser interval" };
  if (first && end && last && returned > 0 && from && to) {
    // The rest is the window between the last row returned and the far end of the whole list.
    const ascending = first.day <= end.day;
    const window = ascending
      ? { [from]: shiftDay(last.day, 1), [to]: end.day }
      : { [from]: end.day, [to]: shiftDay(last.day, -1) };
    const next: Json = { ...args, ...window };
    if (typeof next.period === "string" && WINDOW_PERIOD.test(next.period)) delete next.period;
    return { more: `call again with ${from}=${window[from]} and ${to}=${window[to]}`, next_arguments: next };
  }
  if (params.includes("limit")) return { more: "ask for fewer rows with limit, or narrow the request" };
  return { more: "narrow the request (fewer tickers, a shorter window, one indicator)" };
}

/**
 * A route's parsed JSON as a tool or a resource gives it: an object (a list goes under `items`),
 * fitted to `maxBytes`, with `cut` where it was cut.
 */
export function fittedAnswer(parsed: unknown, maxBytes: number, params: readonly string[], args: Json): Json {
  const object: Json = Array.isArray(parsed) ? { items: parsed } : ((parsed ?? {}) as Json);
  const { value, cut } = fitToBudget(object, maxBytes, params, args);
  return cut ? { ...value, cut } : value;
}

/**
 * `value` fitted to `maxBytes` of JSON: as it is when it fits; else its longest lists cut to the
 * most leading rows that fit, the first of them described in `cut`. An answer no cut of its lists
 * fits is replaced by a note of its size.
 */
export function fitToBudget(
  value: Json,
  maxBytes: number,
  params: readonly string[],
  args: Json,
): { value: Json; cut: Cut | null } {
  if (bytesOf(value) <= maxBytes) return { value, cut: null };
  let fitted = value;
  let cut: Cut | null = null;
  // Room for `cut` itself beside what is kept.
  maxBytes -= CUT_BYTES;
  for (const { path } of listsOf(value)) {
    const rows = at(value, path) as unknown[];
    // The most leading rows that fit: what fits is monotone in the number of rows kept.
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (bytesOf(withRows(fitted, path, mid)) <= maxBytes) lo = mid;
      else hi = mid - 1;
    }
    fitted = withRows(fitted, path, lo);
    // The list a caller pages through: the first one any row of was kept.
    if (cut === null || cut.returned === 0) {
      const more = howToGetMore(rows, lo, params, args);
      if (more.next_arguments && bytesOf(more.next_arguments) > CUT_BYTES / 2) delete more.next_arguments;
      cut = { list: path.join("."), returned: lo, total: rows.length, ...more };
    }
    if (bytesOf(fitted) <= maxBytes) return { value: fitted, cut };
  }
  return {
    value: { note: `The answer is ${bytesOf(value)} bytes of JSON, more than the ${maxBytes} a tool returns; narrow the request` },
    cut: { list: "", returned: 0, total: 0, more: "narrow the request" },
  };
}
