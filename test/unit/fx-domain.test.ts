import { describe, expect, it } from "vitest";
import { FIRST_PUBLICATION, missingWindows } from "../../src/domain/fx/coverage";
import { csvFields, readEurofxrefXml, readExrCsv } from "../../src/domain/fx/ecb-wire";
import { euroRatesFromH10 } from "../../src/domain/fx/h10";
import {
  easterSunday,
  latestPublicationDay,
  noPublicationReason,
  publicationFor,
} from "../../src/domain/fx/publication";
import { convertPrice, EuroRateBook, pairRate } from "../../src/domain/fx/rates";
import daily from "../fixtures/recorded/ecb_reference_rates/daily-2023-02-21.json";
import csvPln from "../fixtures/recorded/ecb_reference_rates/exr-csvdata-dataonly-PLN.json";
import easter from "../fixtures/recorded/ecb_reference_rates/hist-90d-2018-easter.json";
import dexuseu from "../fixtures/recorded/macro_provider/observations-DEXUSEU.json";

describe("the ECB's publication calendar", () => {
  it("knows Easter and the TARGET holidays", () => {
    expect(easterSunday(2018)).toBe("2018-04-01");
    expect(easterSunday(2024)).toBe("2024-03-31");
    expect(easterSunday(2026)).toBe("2026-04-05");
    expect(noPublicationReason("2018-03-30")).toBe("TARGET holiday: Good Friday");
    expect(noPublicationReason("2018-04-02")).toBe("TARGET holiday: Easter Monday");
    expect(noPublicationReason("2023-12-26")).toBe("TARGET holiday: Boxing Day");
    expect(noPublicationReason("2018-05-01")).toBe("TARGET holiday: Labour Day");
    expect(noPublicationReason("2026-11-28")).toBe("weekend");
    expect(noPublicationReason("2026-11-27")).toBeNull();
  });

  it("publishes at 16:00 Frankfurt time, winter and summer", () => {
    expect(latestPublicationDay(new Date("2026-11-27T14:59:00Z"))).toBe("2026-11-26");
    expect(latestPublicationDay(new Date("2026-11-27T15:00:00Z"))).toBe("2026-11-27");
    expect(latestPublicationDay(new Date("2026-07-01T13:59:00Z"))).toBe("2026-06-30");
    expect(latestPublicationDay(new Date("2026-07-01T14:00:00Z"))).toBe("2026-07-01");
    // A Monday morning: Friday's; the Tuesday after Easter Monday, before 16:00: the Thursday before Good Friday.
    expect(latestPublicationDay(new Date("2026-11-30T08:00:00Z"))).toBe("2026-11-27");
    expect(latestPublicationDay(new Date("2018-04-03T10:00:00Z"))).toBe("2018-03-29");
  });

  it("gives a day without a publication the last one before it, and a close before 16:00 the day before's", () => {
    expect(publicationFor("2026-11-28")).toEqual({ day: "2026-11-27", why: "weekend" });
    expect(publicationFor("2018-04-02")).toEqual({ day: "2018-03-29", why: "TARGET holiday: Easter Monday" });
    // Tokyo closes at 15:30 JST, 07:30 in Frankfurt: before that day's publication.
    const tokyoClose = new Date("2026-11-26T06:30:00Z");
    expect(publicationFor("2026-11-26", tokyoClose)).toEqual({
      day: "2026-11-25",
      why: "the venue closed before the day's publication (16:00 Frankfurt time)",
    });
    // Paris closes at 17:30: after it.
    expect(publicationFor("2026-11-26", new Date("2026-11-26T16:30:00Z"))).toEqual({ day: "2026-11-26", why: null });
  });
});

describe("the ECB's answers, read", () => {
  it("reads the recorded daily file: 30 currencies of 2023-02-21, as written", () => {
    const read = readEurofxrefXml(daily.response.body);
    expect(read?.drifts).toEqual([]);
    expect(read?.rates).toHaveLength(30);
    expect(new Set(read?.rates.map((r) => r.day))).toEqual(new Set(["2023-02-21"]));
    expect(read?.rates.find((r) => r.currency === "USD")).toEqual({
      day: "2023-02-21",
      currency: "USD",
      rate: "1.0664",
    });
    expect(read?.rates.find((r) => r.currency === "GBP")?.rate).toBe("0.87925");
  });

  it("reads the recorded 90-day file: six days around Easter 2018, 32 currencies each", () => {
    const read = readEurofxrefXml(easter.response.body);
    const days = [...new Set(read?.rates.map((r) => r.day))];
    expect(days).toEqual(["2018-04-04", "2018-04-03", "2018-03-29", "2018-03-28", "2018-03-27", "2018-03-26"]);
    expect(read?.rates).toHaveLength(6 * 32);
    expect(read?.rates.find((r) => r.currency === "USD" && r.day === "2018-04-04")?.rate).toBe("1.2276");
  });

  it("costs a drifted entry that entry only, and reports it", () => {
    const text = easter.response.body
      .replace('<Cube currency="JPY" rate="130.43"/>', '<Cube currency="JPY" rate="n/a"/>')
      .replace('<Cube time="2018-04-03">', '<Cube time="3 April">');
    const read = readEurofxrefXml(text);
    expect(read?.rates).toHaveLength(6 * 32 - 1 - 32);
    expect(read?.drifts.map((d) => d.path).sort()).toEqual(["Cube.Cube[].Cube[]@rate", "Cube.Cube[]@time"]);
    expect(read?.rates.find((r) => r.currency === "USD" && r.day === "2018-04-04")?.rate).toBe("1.2276");
  });

  it("reads the data API's CSV, recorded and with the full columns, and refuses one without its columns", () => {
    expect(readExrCsv(csvPln.response.body)).toEqual({
      rates: [{ day: "2026-08-07", currency: "PLN", rate: "4.2983" }],
      drifts: [],
    });
    const full = [
      "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,TITLE_COMPL",
      'EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2024-03-28,1.0811,A,"ECB reference exchange rate, US dollar/Euro, 2:15 pm (C.E.T.)"',
      "EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2024-04-02,NaN,A,x",
      "EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2024-04-03,1.0783e0,A,x",
    ].join("\r\n");
    const read = readExrCsv(full);
    expect(read?.rates).toEqual([{ day: "2024-03-28", currency: "USD", rate: "1.0811" }]);
    expect(read?.drifts.map((d) => d.path)).toEqual(["OBS_VALUE"]);
    expect(readExrCsv("KEY,FREQ\nEXR.D.USD")).toBeNull();
    expect(csvFields('a,"b, c",""')).toEqual(["a", "b, c", ""]);
  });
});

describe("rates between currencies", () => {
  const book = new EuroRateBook([
    { day: "2018-03-29", currency: "USD", rate: "1.2321", source: "ecb" },
    { day: "2018-03-29", currency: "GBP", rate: "0.87490", source: "ecb" },
    { day: "2018-04-03", currency: "USD", rate: "1.2273", source: "ecb" },
    { day: "2018-04-03", currency: "GBP", rate: "0.87513", source: "ecb" },
  ]);

  it("serves a euro rate as published, carries it over a holiday with the reason, and crosses through the euro", () => {
    expect(pairRate(book, { base: "EUR", quote: "USD" }, "2018-03-29")).toEqual({
      date: "2018-03-29",
      rate: "1.2321",
      published: "2018-03-29",
      source: "ecb",
      carried_forward: false,
    });
    expect(pairRate(book, { base: "EUR", quote: "USD" }, "2018-03-30")).toMatchObject({
      rate: "1.2321",
      published: "2018-03-29",
      carried_forward: true,
      note: "the 2018-03-29 publication; TARGET holiday: Good Friday",
    });
    // 0.87513 / 1.2273, to 10 significant digits, half to even.
    expect(pairRate(book, { base: "USD", quote: "GBP" }, "2018-04-03")?.rate).toBe("0.7130530433");
    expect(pairRate(book, { base: "GBP", quote: "EUR" }, "2018-04-03")?.rate).toBe("1.142687372");
    expect(pairRate(book, { base: "USD", quote: "USD" }, "2018-04-03")).toMatchObject({
      rate: "1",
      source: "identity",
    });
    expect(pairRate(book, { base: "EUR", quote: "USD" }, "2018-03-28")).toBeNull();
  });

  it("says a day's rates are not out yet, and names a publication that is missing", () => {
    expect(pairRate(book, { base: "EUR", quote: "USD" }, "2018-04-04", { latestPublication: "2018-04-03" })?.note).toBe(
      "the 2018-04-03 publication; the day's rates are published at 16:00 Frankfurt time",
    );
    expect(pairRate(book, { base: "EUR", quote: "USD" }, "2018-04-04", { latestPublication: "2018-04-05" })?.note).toBe(
      "the 2018-04-03 publication; no publication stored for 2018-04-04",
    );
  });

  it("carries a publication ten days at most, and takes a day's own stored one whatever the calendar says", () => {
    const sparse = new EuroRateBook([
      { day: "2018-03-01", currency: "USD", rate: "1.2", source: "ecb" },
      { day: "2018-03-30", currency: "USD", rate: "1.23", source: "ecb" },
    ]);
    expect(pairRate(sparse, { base: "EUR", quote: "USD" }, "2018-03-11")?.published).toBe("2018-03-01");
    expect(pairRate(sparse, { base: "EUR", quote: "USD" }, "2018-03-12")).toBeNull();
    // 30 March 2018 is Good Friday in today's calendar; a publication stored for it is the day's own.
    expect(pairRate(sparse, { base: "EUR", quote: "USD" }, "2018-03-30")).toMatchObject({
      rate: "1.23",
      published: "2018-03-30",
      carried_forward: false,
    });
  });

  it("converts a price at the served rate, half to even at 6 decimals", () => {
    expect(convertPrice(100.5, "1.2321")).toBe(123.82605);
    expect(convertPrice(0.1234565, "1")).toBe(0.123456);
    expect(convertPrice(0.1234575, "1")).toBe(0.123458);
  });
});

describe("the windows a span needs", () => {
  const span = (since: string, through: string) => ({ since, through });

  it("fetches a year whole, or only its recent days, and what lies before or after a stored span", () => {
    expect(missingWindows(["USD"], "2025-03-01", "2025-03-31", "2026-11-27", new Map())).toEqual([
      { year: 2025, from: "2025-01-01", to: "2025-12-31", currencies: ["USD"] },
    ]);
    expect(missingWindows(["USD", "GBP"], "2026-11-01", "2026-11-30", "2026-11-27", new Map())).toEqual([
      { year: 2026, from: "2026-09-08", to: "2026-11-27", currencies: ["GBP", "USD"] },
    ]);
    const spans = new Map([
      ["USD 2026", span("2026-09-08", "2026-11-20")],
      ["GBP 2026", span("2026-09-08", "2026-11-27")],
    ]);
    expect(missingWindows(["USD", "GBP"], "2026-06-01", "2026-11-30", "2026-11-27", spans)).toEqual([
      { year: 2026, from: "2026-01-01", to: "2026-09-07", currencies: ["GBP", "USD"] },
      { year: 2026, from: "2026-11-21", to: "2026-11-27", currencies: ["USD"] },
    ]);
    expect(missingWindows(["USD"], "1998-01-01", "1999-01-10", "2026-11-27", new Map())).toEqual([
      { year: 1999, from: FIRST_PUBLICATION, to: "1999-12-31", currencies: ["USD"] },
    ]);
    expect(
      missingWindows(
        ["USD"],
        "2026-11-02",
        "2026-11-27",
        "2026-11-27",
        new Map([["USD 2026", span("2026-01-01", "2026-11-27")]]),
      ),
    ).toEqual([]);
  });
});

describe("the macro provider's H.10 rates as euro rates", () => {
  it("takes the recorded dollars per euro as the dollar's, and crosses the others through the dollar of the day", () => {
    const usd = new Map(
      dexuseu.response.body.observations.filter((o) => o.value !== ".").map((o) => [o.date, o.value] as const),
    );
    expect(usd.get("2015-01-02")).toBe("1.2015");
    expect(usd.has("2015-01-19")).toBe(false);
    const rows = euroRatesFromH10(
      usd,
      new Map([
        ["JPY", new Map([["2015-01-02", "120.20"]])],
        ["GBP", new Map([["2015-01-02", "1.5339"]])],
      ]),
    );
    const of = (c: string) => rows.find((r) => r.day === "2015-01-02" && r.currency === c);
    expect(of("USD")).toEqual({ day: "2015-01-02", currency: "USD", rate: "1.2015", source: "macro_provider" });
    // Yen per dollar × dollars per euro; dollars per euro ÷ dollars per pound: 10 significant digits.
    expect(of("JPY")?.rate).toBe("144.4203");
    expect(of("GBP")?.rate).toBe("0.783297477");
    expect(rows.filter((r) => r.currency === "JPY")).toHaveLength(1);
  });
});
