import type { Bar } from "./bars";

export const EOD_CSV_HEADER = "Date,Open,High,Low,Close,Adj Close,Volume";

/** The CSV form of EOD bars: the spec's header, one line per bar, numbers as in the JSON form. */
export function barsToCsv(bars: readonly Bar[]): string {
  const lines = [EOD_CSV_HEADER];
  for (const b of bars) lines.push(`${b.date},${b.open},${b.high},${b.low},${b.close},${b.adjClose},${b.volume}`);
  return `${lines.join("\n")}\n`;
}

/** Converted bars as CSV: the spec's columns in the converted currency, then each bar's rate and publication day. */
export function convertedBarsToCsv(
  bars: readonly Bar[],
  rates: readonly ({ rate: string; published: string } | undefined)[],
): string {
  const lines = [`${EOD_CSV_HEADER},FX Rate,FX Published`];
  bars.forEach((b, i) => {
    const r = rates[i];
    lines.push(
      `${b.date},${b.open},${b.high},${b.low},${b.close},${b.adjClose},${b.volume},${r?.rate ?? ""},${r?.published ?? ""}`,
    );
  });
  return `${lines.join("\n")}\n`;
}
