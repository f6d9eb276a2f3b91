/**
 * A bulk import's lines: read from CSV or JSON into ISINs and symbols, each numbered as the caller
 * wrote it, with the lines that cannot be read kept as refused (their number and why), and handed to
 * the queue in messages of a few lines. Pure; linear in the body's length.
 */
import { MAX_TICKER_LENGTH, TICKER_CHARS } from "./catalogue-additions";
import { isinProblem, normaliseIsin } from "./isin";

/** Lines one import may hold (spec-free; the bound). */
export const MAX_IMPORT_LINES = 10_000;
/** The body an import may send: 10,000 lines of an ISIN and an exchange with room to spare. */
export const MAX_IMPORT_BYTES = 1024 * 1024;
/** Lines per queue message: each line costs a few paced provider calls, a message stays well inside a consumer's invocation. */
export const LINES_PER_MESSAGE = 5;
/** Messages per `sendBatch` (the Queues limit). */
export const MESSAGES_PER_SEND = 100;

export type ImportItem = { isin: string } | { symbol: string; exchange?: string };

/** A line as the caller wrote it: the item read from it, or why it cannot be read. */
export type ImportLine = { line: number; asked: string } & ({ item: ImportItem } | { refused: string });

/** The queue's message: lines of an import to work through (by number; the database holds the rest). */
export interface ImportMessage {
  importId: number;
  lines: number[];
}

const ISIN_SHAPE = /^[A-Za-z]{2}[A-Za-z0-9]{9}[0-9]$/;

/** An item from one value (and an exchange): a 12-character ISIN shape is an ISIN, else a ticker. */
function itemOf(value: string, exchange: string | undefined): ImportItem | { refused: string } {
  if (ISIN_SHAPE.test(value)) {
    const problem = isinProblem(value);
    return problem ? { refused: problem } : { isin: normaliseIsin(value) as string };
  }
  if (!TICKER_CHARS.test(value) || value.length > MAX_TICKER_LENGTH)
    return { refused: `'${value.slice(0, 40)}' is neither an ISIN nor a ticker of at most 10 characters` };
  return exchange ? { symbol: value.toUpperCase(), exchange: exchange.toUpperCase() } : { symbol: value.toUpperCase() };
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .trim();

/**
 * The lines of a CSV body: one ISIN or ticker per line, optionally a second column with the
 * catalogue exchange; a first line naming the columns (`isin`, `symbol`, `ticker`, `exchange`) is
 * read as a header. Blank lines are skipped; line numbers are the file's.
 * @example readImportCsv("isin\nUS0378331005\n").map((l) => l.line) // [2]
 */
export function readImportCsv(text: string): ImportLine[] {
  const rows = text.split(/\r?\n/);
  const head = (rows[0] ?? "").split(",").map((c) => unquote(c).toLowerCase());
  const hasHeader = head.some((c) => ["isin", "symbol", "ticker", "exchange"].includes(c));
  // The first non-empty of the ISIN, symbol and ticker columns (one file may mix them); without a header, the first column.
  const valueCols = hasHeader ? ["isin", "symbol", "ticker"].map((c) => head.indexOf(c)).filter((i) => i >= 0) : [0];
  const exchangeAt = hasHeader ? head.indexOf("exchange") : 1;
  const out: ImportLine[] = [];
  for (let i = hasHeader ? 1 : 0; i < rows.length; i++) {
    const raw = (rows[i] ?? "").trim();
    if (raw === "") continue;
    const cells = raw.split(",").map(unquote);
    const value = valueCols.map((c) => cells[c] ?? "").find((v) => v !== "") ?? "";
    const exchange = exchangeAt >= 0 ? cells[exchangeAt] || undefined : undefined;
    const asked = raw.slice(0, 80);
    const read = value === "" ? { refused: "no ISIN or ticker on the line" } : itemOf(value, exchange);
    out.push("refused" in read ? { line: i + 1, asked, refused: read.refused } : { line: i + 1, asked, item: read });
  }
  return out;
}

/** The lines of a JSON body's items (`{"isin"}` or `{"symbol", "exchange"?}` each), numbered from 1. */
export function readImportItems(items: readonly { isin?: string; symbol?: string; exchange?: string }[]): ImportLine[] {
  return items.map((it, i) => {
    const value = (it.isin ?? it.symbol ?? "").trim();
    const asked = [value, it.exchange].filter(Boolean).join(",").slice(0, 80);
    const read = value === "" ? { refused: "no ISIN or ticker in the item" } : itemOf(value, it.exchange);
    return "refused" in read ? { line: i + 1, asked, refused: read.refused } : { line: i + 1, asked, item: read };
  });
}

/** The messages that carry `lines` (line numbers) through the queue, LINES_PER_MESSAGE each. */
export function importMessages(importId: number, lines: readonly number[]): ImportMessage[] {
  const out: ImportMessage[] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_MESSAGE)
    out.push({ importId, lines: lines.slice(i, i + LINES_PER_MESSAGE) });
  return out;
}
