/**
 * A running sum kept exactly, as a short list of non-overlapping float64 parts (Shewchuk's
 * expansions): adding and taking away values never rounds, and `value()` is the exact total
 * rounded once, to the nearest float64. So a window's sum is the same float whatever came
 * before the window: an indicator computed over a window's bars alone gives bit for bit the
 * value it gives over the whole history, which the screener's short reads rely on.
 */
export class ExactSum {
  /** Non-overlapping parts, smallest magnitude first; `count` of them in use. */
  private parts = new Float64Array(8);
  private count = 0;
  /** Non-finite values in the sum, counted so that taking them away again restores it. */
  private nans = 0;
  private plusInfinities = 0;
  private minusInfinities = 0;

  add(value: number): void {
    if (!Number.isFinite(value)) {
      this.countSpecial(value, 1);
      return;
    }
    const parts = this.parts;
    let x = value;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const y = parts[i] as number;
      // Two-sum of the larger and the smaller: hi is their rounded sum, lo what the rounding lost.
      let hi: number;
      let lo: number;
      if (Math.abs(x) < Math.abs(y)) {
        hi = y + x;
        lo = x - (hi - y);
      } else {
        hi = x + y;
        lo = y - (hi - x);
      }
      if (lo !== 0) parts[kept++] = lo;
      x = hi;
    }
    if (kept === parts.length) this.grow();
    this.parts[kept++] = x;
    this.count = kept;
  }

  /** Takes a value added before away again (a window's oldest value as the window moves on). */
  remove(value: number): void {
    if (Number.isFinite(value)) this.add(-value);
    else this.countSpecial(value, -1);
  }

  /** Adds a·b exactly (both halves of the product), for weighted sums. */
  addProduct(a: number, b: number): void {
    const p = a * b;
    this.add(p);
    if (Number.isFinite(p)) this.add(productError(a, b, p));
  }

  /** Adds (sign 1) or takes away (sign -1) every part of another sum: exactly, their totals add. */
  addSum(other: ExactSum, sign: 1 | -1 = 1): void {
    for (let i = 0; i < other.count; i++) this.add(sign * (other.parts[i] as number));
    this.nans += sign * other.nans;
    this.plusInfinities += sign * other.plusInfinities;
    this.minusInfinities += sign * other.minusInfinities;
  }

  /** The exact total rounded to the nearest float64 (ties to even). */
  value(): number {
    if (this.nans > 0 || (this.plusInfinities > 0 && this.minusInfinities > 0)) return Number.NaN;
    if (this.plusInfinities > 0) return Number.POSITIVE_INFINITY;
    if (this.minusInfinities > 0) return Number.NEGATIVE_INFINITY;
    let n = this.count;
    if (n === 0) return 0;
    let hi = this.parts[--n] as number;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = this.parts[--n] as number;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // The parts below decide a tie: if the rest has lo's sign, the rounding of hi + lo goes away from hi.
    const rest = n > 0 ? (this.parts[n - 1] as number) : 0;
    if ((lo < 0 && rest < 0) || (lo > 0 && rest > 0)) {
      const y = lo * 2;
      const x = hi + y;
      if (x - hi === y) hi = x;
    }
    return hi;
  }

  private countSpecial(value: number, sign: 1 | -1): void {
    if (Number.isNaN(value)) this.nans += sign;
    else if (value > 0) this.plusInfinities += sign;
    else this.minusInfinities += sign;
  }

  private grow(): void {
    const bigger = new Float64Array(this.parts.length * 2);
    bigger.set(this.parts);
    this.parts = bigger;
  }
}

/** a·b − fl(a·b) exactly (Dekker's split; no FMA in JavaScript). */
function productError(a: number, b: number, p: number): number {
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

const SPLITTER = 134_217_729; // 2^27 + 1

function split(a: number): [number, number] {
  const c = SPLITTER * a;
  const hi = c - (c - a);
  return [hi, a - hi];
}
