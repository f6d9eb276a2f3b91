import type { Hono } from "hono";
import type { registerListQuotes } from "../../src/routes/realtime/list-quotes";
import type { registerUnsubscribe } from "../../src/routes/realtime/unsubscribe";
import type { registerListStocks } from "../../src/routes/stocks/list";
import type { registerBatch } from "../../src/routes/technical/batch";
import type { registerGetChart } from "../../src/routes/technical/chart";
import type { registerListIndicators } from "../../src/routes/technical/list";
import type { registerScreen } from "../../src/routes/technical/screen";

/**
 * The answer types of the routes whose response schema is written inside the route file rather than
 * beside the others in its area's schema.ts (where the tests take the rest from). They are read from
 * the type the route's registration returns, i.e. from that same schema: nothing is written twice.
 */
type EndpointOf<Register> = Register extends (api: never) => Hono<infer _E, infer S, infer _B>
  ? S[keyof S][keyof S[keyof S]]
  : never;

/** The body a registered route declares for `Status` (its 200 by default). */
type AnswerOf<Register, Status extends number = 200> = Extract<EndpointOf<Register>, { status: Status }>["output"];

export type QuotesAnswer = AnswerOf<typeof registerListQuotes>;
export type UnsubscribeAnswer = AnswerOf<typeof registerUnsubscribe>;
export type StocksOverview = AnswerOf<typeof registerListStocks>;
export type BatchAnswer = AnswerOf<typeof registerBatch>;
export type ChartAnswer = AnswerOf<typeof registerGetChart>;
export type IndicatorCatalogue = AnswerOf<typeof registerListIndicators>;
export type ScreenAnswer = AnswerOf<typeof registerScreen>;
