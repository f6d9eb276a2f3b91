import { describe, expect, it } from "vitest";
import {
  answeredAtOnce,
  RUN_SHARE_BARS,
  runKey,
  runShares,
  SYNC_SCREEN_MAX_BARS,
  syncInstrumentCap,
} from "../../src/domain/screen-runs";

describe("when a screen of a length no snapshot holds is queued", () => {
  it("answers at once up to SYNC_SCREEN_MAX_BARS bars read, counting at most ten years an instrument", () => {
    expect(SYNC_SCREEN_MAX_BARS).toBe(2_500_000);
    // RSI(21) reads the stored history: at most ten years (2,600 bars) an instrument.
    expect(syncInstrumentCap(5000)).toBe(961);
    expect(answeredAtOnce(961, 5000)).toBe(true);
    expect(answeredAtOnce(962, 5000)).toBe(false);
    // SMA(30) reads 31 bars.
    expect(syncInstrumentCap(31)).toBe(80_645);
    expect(answeredAtOnce(100_000, 31)).toBe(false);
    expect(answeredAtOnce(300, 115_000)).toBe(true);
  });

  it("cuts a run into shares of about RUN_SHARE_BARS bars, one at least, and keys it by its day", () => {
    expect(RUN_SHARE_BARS).toBe(500_000);
    expect(runShares(100_000, 5000)).toBe(520);
    expect(runShares(100_000, 31)).toBe(7);
    expect(runShares(0, 31)).toBe(1);
    expect(runKey({ indicator: "rsi", params: '{"length":21}', resolution: "1D", day: "2026-11-29" })).toBe(
      'rsi|{"length":21}|1D|2026-11-29',
    );
  });
});
