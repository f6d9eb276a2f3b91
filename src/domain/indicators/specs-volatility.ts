import { type IndicatorSpec, length, one, param } from "./spec";
import { atr, bbands, kc } from "./volatility";

/** The volatility indicators of the catalogue, in its order. */
export const VOLATILITY_INDICATORS: readonly IndicatorSpec[] = [
  {
    name: "bbands",
    label: "Bollinger bands",
    category: "volatility",
    params: [
      length(20),
      {
        name: "std",
        default: 2,
        min: 0.1,
        max: 10,
        integer: false,
        description: "standard deviations from the middle band",
      },
    ],
    outputs: [
      { name: "upper", label: "Upper band" },
      { name: "middle", label: "Middle band" },
      { name: "lower", label: "Lower band" },
    ],
    intradayOnly: false,
    windowed: true,
    inputs: ["close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => bbands(s.close, param(p, "length"), param(p, "std")),
  },
  {
    name: "atr",
    label: "Average true range",
    category: "volatility",
    params: [length(14)],
    outputs: one("atr", "ATR"),
    intradayOnly: false,
    windowed: false,
    inputs: ["high", "low", "close"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [atr(s.high, s.low, s.close, param(p, "length"))],
  },
  {
    name: "kc",
    label: "Keltner channels",
    category: "volatility",
    params: [
      length(20),
      {
        name: "multiplier",
        default: 2,
        min: 0.1,
        max: 10,
        integer: false,
        description: "true-range EMAs from the middle line",
      },
    ],
    outputs: [
      { name: "upper", label: "Upper channel" },
      { name: "middle", label: "Middle line" },
      { name: "lower", label: "Lower channel" },
    ],
    intradayOnly: false,
    windowed: false,
    inputs: ["high", "low", "close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => kc(s.high, s.low, s.close, param(p, "length"), param(p, "multiplier")),
  },
];
