import { describe, expect, it } from "vitest";
import { scaleBars } from "../../src/domain/bars";
import { missingRanges, sessionsOf, venueSessionTest } from "../../src/domain/ingest-plan";
import {
  currencyScale,
  isVenueOf,
  liveScale,
  splitSuffix,
  streamSymbolOf,
  venueOfDelayedExchange,
  venueOfSuffix,
} from "../../src/domain/provider-symbols";
import { isTradingDay, VENUES, type Venue } from "../../src/domain/venues";
import { decodeFrames, encodeFrame, message } from "../../src/providers/stream/protocol";

describe("provider symbols", () => {
  it.each([
    ["MC.PA", "PAR", "EURONEXT:MC"],
    ["ASML.AS", "AMS", "EURONEXT:ASML"],
    ["SAP.DE", "XETRA", "XETR:SAP"],
    ["SWDA.L", "LSE", "LSE:SWDA"],
    ["RACE.MI", "MIL", "MIL:RACE"],
    ["RACE", "MIL", "MIL:RACE"],
    ["RACE", "NYSE", "NYSE:RACE"],
    ["AAPL", "NASDAQ", "NASDAQ:AAPL"],
    ["BRK-B", "NYSE", "NYSE:BRK.B"],
    ["SPY", "NYSEARCA", "AMEX:SPY"],
    ["XYZ", null, "NASDAQ:XYZ"],
    ["7203.T", "TSE", "TSE:7203"],
    ["7203", "TSE", "TSE:7203"],
    ["BHP.AX", "ASX", "ASX:BHP"],
    // Hong Kong's codes without their leading zeros on the stream (0700 is HKEX:700 there).
    ["0700.HK", "HKEX", "HKEX:700"],
    ["3000.HK", "HKEX", "HKEX:3000"],
    ["SHOP.TO", "TSX", "TSX:SHOP"],
    ["NESN.SW", "SIX", "SIX:NESN"],
    ["EQNR.OL", "OSL", "OSL:EQNR"],
    ["EBS.VI", "VIE", "VIE:EBS"],
    ["GALP.LS", "LIS", "EURONEXT:GALP"],
    ["RYA.IR", "DUB", "EURONEXT:RYA"],
    ["NOKIA.HE", "HEL", "OMXHEX:NOKIA"],
    // Suffixes of venues the catalogue has none of keep their stream exchange (Frankfurt's floor, Stuttgart).
    ["SAP.F", "XETRA", "FWB:SAP"],
    ["SAP.SG", null, "SWB:SAP"],
  ])("names %s (%s) %s on the stream provider", (ticker, exchange, expected) => {
    expect(streamSymbolOf(ticker, exchange)).toBe(expected);
  });

  it("splits a suffix only when it is one", () => {
    expect(splitSuffix("mc.pa")).toEqual({ base: "MC", suffix: "PA" });
    expect(splitSuffix("BRK-B")).toEqual({ base: "BRK-B", suffix: null });
    expect(splitSuffix("AAPL")).toEqual({ base: "AAPL", suffix: null });
  });

  it("matches venues and currencies, pence included", () => {
    expect(isVenueOf("GER", "XETRA")).toBe(true);
    expect(isVenueOf("AMS", "XETRA")).toBe(false);
    expect(isVenueOf(null, "XETRA")).toBe(false);
    expect(isVenueOf("NYQ", null)).toBe(true);
    expect(currencyScale("EUR", "EUR")).toBe(1);
    expect(currencyScale("GBp", "GBP")).toBe(0.01);
    expect(currencyScale("GBX", "GBP")).toBe(0.01);
    expect(currencyScale("GBP", "GBP")).toBe(1);
    expect(currencyScale("USD", "EUR")).toBeNull();
    expect(currencyScale(null, "EUR")).toBeNull();
  });

  it("finds the catalogue's venue of a delayed-provider exchange code or a ticker suffix, case ignored", () => {
    expect(isVenueOf("JPX", "TSE")).toBe(true);
    expect(isVenueOf("HKG", "TSE")).toBe(false);
    expect(isVenueOf("ISE", "dub")).toBe(true);
    expect(venueOfDelayedExchange("GER")?.code).toBe("XETRA");
    expect(venueOfDelayedExchange("HKG")?.code).toBe("HKEX");
    expect(venueOfDelayedExchange("ngm")?.code).toBe("NASDAQ");
    expect(venueOfDelayedExchange("EBS")?.code).toBe("SIX");
    expect(venueOfDelayedExchange("FRA")).toBeUndefined();
    expect(venueOfSuffix("HE")?.code).toBe("HEL");
    expect(venueOfSuffix("de")?.code).toBe("XETRA");
    expect(venueOfSuffix("AX")?.code).toBe("ASX");
    expect(venueOfSuffix("to")?.code).toBe("TSX");
    expect(venueOfSuffix("LS")?.code).toBe("LIS");
    // Frankfurt's floor has a stream exchange but no venue in the catalogue.
    expect(venueOfSuffix("F")).toBeUndefined();
  });

  it("scales pence to pounds without binary residue", () => {
    const [b] = scaleBars(
      [
        {
          date: "2026-01-02",
          open: 8123.5,
          high: 8200.01,
          low: 8000.1,
          close: 8123.45,
          adjClose: 8100.123456,
          volume: 10,
        },
      ],
      0.01,
    );
    expect(b).toEqual({
      date: "2026-01-02",
      open: 81.235,
      high: 82.0001,
      low: 80.001,
      close: 81.2345,
      adjClose: 81.00123456,
      volume: 10,
    });
  });
});

describe("the live stream's prices in the listing's currency", () => {
  it.each([
    ["GBX", "GBP", 0.01],
    ["USD", "USD", 1],
    [null, "USD", 1],
    // A GBP line whose stream did not say its unit: pence or pounds cannot be told.
    [null, "GBP", null],
    ["EUR", "USD", null],
  ] as const)("%s for a %s listing: %s", (quoted, listing, expected) => {
    expect(liveScale(quoted, listing)).toBe(expected);
  });
});

describe("ingestion plan", () => {
  it("fetches everything when nothing is stored, and only the edges otherwise", () => {
    expect(missingRanges({ from: "2016-11-25", to: "2026-11-24" }, null)).toEqual([
      { from: "2016-11-25", to: "2026-11-24" },
    ]);
    expect(
      missingRanges({ from: "2015-12-30", to: "2026-11-24" }, { first: "2016-01-04", last: "2026-11-20" }),
    ).toEqual([
      { from: "2015-12-30", to: "2015-12-31" },
      { from: "2026-11-23", to: "2026-11-24" },
    ]);
    expect(
      missingRanges({ from: "2020-01-01", to: "2020-12-31" }, { first: "2016-01-04", last: "2026-11-20" }),
    ).toEqual([]);
    // New Year's Day and the weekend after it hold no session; 2011-01-01 is a Saturday (and New Year's Day).
    expect(
      missingRanges({ from: "2010-01-01", to: "2011-01-01" }, { first: "2016-01-04", last: "2026-11-20" }),
    ).toEqual([{ from: "2010-01-04", to: "2010-12-31" }]);
    expect(missingRanges({ from: "2026-11-25", to: "2026-11-24" }, null)).toEqual([]);
  });

  it("never asks for the venue's holidays at either end of a window, on the calendar the refresh runs on", () => {
    const nasdaq = VENUES.NASDAQ as Venue;
    const trades = (d: string) => isTradingDay(nasdaq, d);
    // Thanksgiving 2026 (Thursday the 26th): a listing stored to the 25th misses nothing on the 27th.
    expect(
      missingRanges({ from: "2016-11-27", to: "2026-11-26" }, { first: "2016-11-28", last: "2026-11-25" }, trades),
    ).toEqual([]);
    expect(
      missingRanges({ from: "2016-11-27", to: "2026-11-26" }, { first: "2016-11-28", last: "2026-11-25" }),
    ).toEqual([{ from: "2026-11-26", to: "2026-11-26" }]);
    // Xetra closes on Christmas Eve and New Year's Eve: the last week of 2026 holds three sessions.
    expect(sessionsOf({ from: "2026-12-24", to: "2027-01-01" }, (d) => isTradingDay(VENUES.XETRA as Venue, d))).toEqual(
      {
        from: "2026-12-28",
        to: "2026-12-30",
      },
    );
  });

  it("asks for Tokyo's Christmas Day, a session there, on the venue's calendar where it holds the year", () => {
    const wanted = { from: "2016-12-26", to: "2026-12-25" };
    const stored = { first: "2016-12-26", last: "2026-12-24" };
    expect(missingRanges(wanted, stored, venueSessionTest(VENUES.TSE))).toEqual([
      { from: "2026-12-25", to: "2026-12-25" },
    ]);
    expect(missingRanges(wanted, stored, venueSessionTest(VENUES.XETRA))).toEqual([]);
    expect(missingRanges(wanted, stored, venueSessionTest(undefined))).toEqual([]);
    // Years no calendar holds: weekdays but 1 January and 25 December, on every venue.
    expect(venueSessionTest(VENUES.TSE)("2028-12-25")).toBe(false);
    expect(venueSessionTest(VENUES.TSE)("2028-12-26")).toBe(true);
  });

  it("never asks for a range that holds no weekday", () => {
    expect(sessionsOf({ from: "2026-11-21", to: "2026-11-30" })).toEqual({ from: "2026-11-23", to: "2026-11-30" });
    expect(sessionsOf({ from: "2025-12-25", to: "2025-12-25" })).toBeNull();
    // The ten-year window of 2026-11-26 starts on Saturday 2016-11-26: that weekend is not missing.
    expect(
      missingRanges({ from: "2016-11-26", to: "2026-11-25" }, { first: "2016-11-28", last: "2026-11-25" }),
    ).toEqual([]);
    expect(missingRanges({ from: "2026-11-21", to: "2026-11-22" }, null)).toEqual([]);
    expect(
      missingRanges({ from: "2026-11-20", to: "2026-11-23" }, { first: "2026-11-20", last: "2026-11-20" }),
    ).toEqual([{ from: "2026-11-23", to: "2026-11-23" }]);
    // No venue we list trades on Christmas Day or New Year's Day.
    expect(
      missingRanges({ from: "2025-12-24", to: "2025-12-28" }, { first: "2016-01-04", last: "2025-12-24" }),
    ).toEqual([{ from: "2025-12-26", to: "2025-12-26" }]);
    expect(
      missingRanges({ from: "2025-12-31", to: "2026-01-01" }, { first: "2016-01-04", last: "2025-12-31" }),
    ).toEqual([]);
  });
});

describe("stream-provider framing", () => {
  it("frames and unframes several messages, heartbeats and the hello", () => {
    const text =
      encodeFrame('{"session_id":"x","protocol":"json"}') +
      message("symbol_resolved", ["cs_a", "s", { pricescale: 100 }]) +
      encodeFrame("~h~7");
    expect(decodeFrames(text)).toEqual([
      { kind: "other", data: { session_id: "x", protocol: "json" } },
      { kind: "message", method: "symbol_resolved", params: ["cs_a", "s", { pricescale: 100 }] },
      { kind: "heartbeat", raw: "~h~7" },
    ]);
  });

  it("counts the payload length and skips a broken frame without losing the next", () => {
    expect(message("a", [])).toBe('~m~16~m~{"m":"a","p":[]}');
    const text = `~m~5~m~{bad}${message("ok", [1])}`;
    expect(decodeFrames(text)).toEqual([{ kind: "message", method: "ok", params: [1] }]);
    expect(decodeFrames("garbage")).toEqual([]);
  });
});
