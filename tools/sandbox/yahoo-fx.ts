import { ECB_CURRENCIES } from "../../src/domain/fx/currencies";
import { addDays } from "../../src/domain/instants";
import { localInstant } from "../../src/domain/venues";
import { simulatedRate } from "./ecb";

/**
 * The delayed provider's currency pairs (`EURUSD=X`: dollars per euro), simulated as the recorded
 * answers show them (yahoo-finance2's and pricehist's fixtures): meta currency the quote's,
 * exchangeName CCY, instrumentType CURRENCY, Europe/London; a bar each weekday stamped at 00:00
 * London time (23:00 UTC the day before in summer), volume 0, adjclose equal to close, and the
 * day in progress as a last bar stamped at the time of asking. The close is the ECB simulator's
 * rate of the day moved by 0.03 % (a market close is not the 14:15 fixing), so a test can tell the
 * two sources apart.
 */

export const FX_PAIR = /^EUR([A-Z]{3})=X$/;

const f32 = (x: number) => Math.fround(x);

/** Epoch seconds of 00:00 London time on `day`. */
const londonMidnight = (day: string): number => localInstant(day, "00:00", "Europe/London").getTime() / 1000;

/** The pair's close of a day: the ECB simulator's rate moved by 0.03 %, to its decimals and one more. */
export function pairClose(currency: string, day: string): number {
  const rate = simulatedRate(currency, day);
  const decimals = (rate.split(".")[1]?.length ?? 0) + 1;
  return Number((Number(rate) * 1.0003).toFixed(decimals));
}

/** The chart answer of a pair, or null for a symbol that is not a pair of the euro and a published currency. */
export function fxChart(symbol: string, q: URLSearchParams, now: Date): unknown | null {
  const currency = FX_PAIR.exec(symbol)?.[1];
  if (!currency || !(ECB_CURRENCIES as readonly string[]).includes(currency)) return null;
  const nowSec = Math.floor(now.getTime() / 1000);
  const p1 = Number(q.get("period1") ?? nowSec - 30 * 86400);
  const p2 = Math.min(Number(q.get("period2") ?? nowSec), nowSec);
  const today = now.toISOString().slice(0, 10);
  const slots: { time: number; close: number }[] = [];
  for (let day = new Date(p1 * 1000).toISOString().slice(0, 10); day <= today; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const t = londonMidnight(day);
    if (t < p1 || t > p2) continue;
    // A day that has not ended in London is the bar in progress, stamped at the time of asking.
    const ended = londonMidnight(addDays(day, 1)) <= nowSec;
    slots.push({ time: ended ? t : nowSec, close: pairClose(currency, day) });
  }
  const closes = slots.map((s) => f32(s.close));
  const last = slots.at(-1);
  return {
    chart: {
      result: [
        {
          meta: {
            currency,
            symbol,
            exchangeName: "CCY",
            fullExchangeName: "CCY",
            instrumentType: "CURRENCY",
            firstTradeDate: 1070236800,
            regularMarketTime: last?.time ?? nowSec,
            hasPrePostMarketData: false,
            gmtoffset: londonMidnight(today) % 86400 === 0 ? 0 : 3600,
            timezone: londonMidnight(today) % 86400 === 0 ? "GMT" : "BST",
            exchangeTimezoneName: "Europe/London",
            regularMarketPrice: last ? f32(last.close) : null,
            regularMarketDayHigh: last ? f32(last.close) : null,
            regularMarketDayLow: last ? f32(last.close) : null,
            regularMarketVolume: 0,
            longName: `EUR/${currency}`,
            shortName: `EUR/${currency}`,
            chartPreviousClose: slots.at(-2) ? f32((slots.at(-2) as { close: number }).close) : null,
            priceHint: 4,
            dataGranularity: q.get("interval") ?? "1d",
            range: q.get("range") ?? "",
          },
          timestamp: slots.map((s) => s.time),
          indicators: {
            quote: [{ volume: slots.map(() => 0), low: closes, open: closes, high: closes, close: closes }],
            adjclose: [{ adjclose: closes }],
          },
        },
      ],
      error: null,
    },
  };
}
