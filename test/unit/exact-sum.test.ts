import { describe, expect, it } from "vitest";
import { ExactSum } from "../../src/domain/indicators/exact-sum";

/** The exact sum of floats rounded once (BigInt arithmetic at a common binary exponent). */
function roundedExactSum(xs: readonly number[]): number {
  const SHIFT = 200; // every value below is a multiple of 2^-200
  const scaled = xs.reduce((s, x) => s + BigInt(x * 2 ** SHIFT), 0n);
  return Number(scaled) * 2 ** -SHIFT;
}

const sumOf = (xs: readonly number[]) => {
  const s = new ExactSum();
  for (const x of xs) s.add(x);
  return s.value();
};

/** A deterministic stream of prices, volumes and tiny or huge values (no Math.random: fixed seed). */
function values(n: number, seed: number): number[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Array.from({ length: n }, (_, i) => {
    const r = next();
    if (i % 7 === 0) return (r - 0.5) * 1e12;
    if (i % 11 === 0) return r * 1e-9;
    return Number((r * 1000).toFixed(1 + (i % 6)));
  });
}

describe("ExactSum", () => {
  it("adds without rounding, then rounds once", () => {
    expect(sumOf([1e16, 1, -1e16])).toBe(1);
    expect(sumOf(Array.from({ length: 10 }, () => 0.1))).toBe(1);
    expect(sumOf([0.1, 0.2])).toBe(0.30000000000000004);
    expect(sumOf([])).toBe(0);
    // A tie broken by the parts below it: 1 + 2^-53 + 2^-106 rounds up, 1 + 2^-53 alone to even (1).
    expect(sumOf([1, 2 ** -53, 2 ** -106])).toBe(1 + 2 ** -52);
    expect(sumOf([1, 2 ** -53])).toBe(1);
    expect(sumOf([1, Number.POSITIVE_INFINITY])).toBe(Number.POSITIVE_INFINITY);
    for (let seed = 1; seed <= 20; seed++) {
      const xs = values(300, seed);
      expect(sumOf(xs), `seed ${seed}`).toBe(roundedExactSum(xs));
    }
  });

  it("gives a window's sum whatever was added and taken away before it", () => {
    const xs = values(1000, 7);
    const running = new ExactSum();
    for (const x of xs) running.add(x);
    for (const x of xs.slice(0, 990)) running.add(-x);
    const window = xs.slice(990);
    expect(running.value()).toBe(sumOf(window));
    expect(running.value()).toBe(sumOf([...window].reverse()));
    expect(running.value()).toBe(roundedExactSum(window));
  });

  it("adds products exactly and whole sums at once", () => {
    const a = 0.1;
    const m = BigInt(a * 2 ** 56); // the float 0.1 is m · 2^-56 exactly
    const weighted = new ExactSum();
    for (let w = 1; w <= 20; w++) weighted.addProduct(a, w);
    // Σ w·a for w = 1..20 is 210·a exactly, rounded once (not 21.000000000000004, the float sum of the products).
    expect(weighted.value()).toBe(Number(210n * m) * 2 ** -56);
    const other = new ExactSum();
    other.add(5);
    other.add(2 ** -60);
    weighted.addSum(other, -1);
    expect(weighted.value()).toBe(Number(210n * m * 16n - 5n * 2n ** 60n - 1n) * 2 ** -60);
  });

  it("keeps as many parts as the values need, and gives back what is left exactly", () => {
    // Values 2^60 apart overlap nowhere: each is a part of its own (16 of them, past the first 8).
    const s = new ExactSum();
    const bigs = Array.from({ length: 15 }, (_, k) => 2 ** (60 * (k + 1)));
    s.add(1);
    for (const b of bigs) s.add(b);
    expect(s.value()).toBe((bigs.at(-1) as number) + (bigs.at(-2) as number));
    for (const b of bigs) s.remove(b);
    // A float sum would have lost the 1 under the first big value.
    expect(s.value()).toBe(1);
  });

  it("counts values that are not numbers, so that taking them away restores the sum", () => {
    const s = new ExactSum();
    s.add(1);
    s.add(Number.NaN);
    s.add(2);
    expect(s.value()).toBeNaN();
    s.remove(Number.NaN);
    expect(s.value()).toBe(3);
    s.add(Number.POSITIVE_INFINITY);
    expect(s.value()).toBe(Number.POSITIVE_INFINITY);
    s.add(Number.NEGATIVE_INFINITY);
    expect(s.value()).toBeNaN();
    s.remove(Number.POSITIVE_INFINITY);
    expect(s.value()).toBe(Number.NEGATIVE_INFINITY);
    s.remove(Number.NEGATIVE_INFINITY);
    expect(s.value()).toBe(3);
  });
});
