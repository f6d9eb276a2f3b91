import { describe, expect, it } from "vitest";
import { median, roundOrder } from "../../tools/bench/load";

describe("the benchmark's interleaving", () => {
  it.each([2, 3, 4, 5])(
    "orders %i targets so that each comes at each place and after each other equally often",
    (n) => {
      const rounds = n % 2 ? 2 * n : n;
      const places = new Map<string, number>();
      const follows = new Map<string, number>();
      for (let r = 0; r < rounds; r++) {
        const order = roundOrder(r, n);
        expect([...order].sort()).toEqual(Array.from({ length: n }, (_, i) => i));
        for (const [place, t] of order.entries()) places.set(`${t}@${place}`, (places.get(`${t}@${place}`) ?? 0) + 1);
        for (let i = 1; i < n; i++)
          follows.set(`${order[i - 1]}>${order[i]}`, (follows.get(`${order[i - 1]}>${order[i]}`) ?? 0) + 1);
      }
      expect(places.size).toBe(n * n);
      expect(new Set(places.values())).toEqual(new Set([rounds / n]));
      // Every ordered pair of different targets, equally often.
      expect(follows.size).toBe(n * (n - 1));
      expect(new Set(follows.values()).size).toBe(1);
    },
  );

  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
