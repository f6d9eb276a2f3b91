import { describe, expect, it } from "vitest";
import { costProblem, indicatorValues, MAX_INDICATOR_VALUES } from "../../src/domain/indicators/cost";
import { parseIndicator } from "../../src/domain/indicators/request";

const requests = (names: string[]) =>
  names.map((n) => {
    const r = parseIndicator(n);
    if (!r.ok) throw new Error(n);
    return r.value;
  });

describe("what several indicators cost", () => {
  it("counts each output of each indicator over every bar", () => {
    // macd answers three series, sma one.
    expect(indicatorValues(requests(["sma_20", "macd"]), 1000)).toBe(4000);
  });

  it("lets 40 indicators over 5,000 bars through, and ten over the largest window", () => {
    const forty = requests(Array.from({ length: 40 }, (_, i) => `sma_${i + 2}`));
    expect(costProblem(forty, 5000)).toBeNull();
    expect(costProblem(forty.slice(0, 10), 100_000)).toBeNull();
  });

  it("refuses past the bound, saying the cost and how to narrow it", () => {
    const forty = requests(Array.from({ length: 40 }, (_, i) => `sma_${i + 2}`));
    expect(costProblem(forty, 100_000)).toBe(
      `40 indicators (40 series) over 100000 bars are 4000000 values; at most ${MAX_INDICATOR_VALUES}: ask for fewer indicators`,
    );
  });
});
