import { type IndicatorSpec, length, one, param } from "./spec";
import { ad, mfi, obv } from "./volume";

/** The volume indicators of the catalogue, in its order. */
export const VOLUME_INDICATORS: readonly IndicatorSpec[] = [
  {
    name: "obv",
    label: "On-balance volume",
    category: "volume",
    params: [],
    outputs: one("obv", "OBV"),
    intradayOnly: false,
    windowed: false,
    inputs: ["close", "volume"],
    lookback: () => 0,
    compute: (s) => [obv(s.close, s.volume)],
  },
  {
    name: "ad",
    label: "Accumulation/distribution line",
    category: "volume",
    params: [],
    outputs: one("ad", "A/D"),
    intradayOnly: false,
    windowed: false,
    inputs: ["high", "low", "close", "volume"],
    lookback: () => 0,
    compute: (s) => [ad(s.high, s.low, s.close, s.volume)],
  },
  {
    name: "mfi",
    label: "Money flow index",
    category: "volume",
    params: [length(14)],
    outputs: one("mfi", "MFI"),
    intradayOnly: false,
    windowed: true,
    inputs: ["high", "low", "close", "volume"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [mfi(s.high, s.low, s.close, s.volume, param(p, "length"))],
  },
];
