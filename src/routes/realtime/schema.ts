import { z } from "@hono/zod-openapi";
import { DELAYED, STREAM } from "../../domain/provider-names";

const dec = z.string().openapi({ example: "231.45" });

export const QuoteSchema = z
  .object({
    ticker: z.string(),
    price: dec,
    open: dec.nullable(),
    high: dec.nullable(),
    low: dec.nullable(),
    close: dec,
    change: dec,
    change_pct: dec,
    volume: z.number().int().nullable(),
    previous_close: dec.nullable(),
    timestamp: z.string(),
    is_realtime: z.boolean(),
    source: z.enum([STREAM, DELAYED]),
    delay_seconds: z.number().int(),
    currency: z.string().optional().openapi({ description: "With convert=: the currency the prices are in" }),
    fx: z
      .object({
        from: z.string().openapi({ example: "GBp", description: "The quote's own currency (GBp: pence)" }),
        rate: z.string().openapi({ description: "Units of the answer's currency for one of `from`" }),
        published: z.string(),
        source: z.string(),
        carried_forward: z.boolean(),
        note: z.string().optional(),
      })
      .optional()
      .openapi({ description: "With convert=: the ECB rate used (the newest published at the quote's time)" }),
  })
  .openapi("Quote");
export type Quote = z.infer<typeof QuoteSchema>;

export const SubscriptionSchema = z
  .object({
    ticker: z.string(),
    tv_exchange: z.string(),
    tv_symbol: z.string(),
    is_active: z.boolean(),
    subscribed_at: z.string(),
    last_tick_at: z.string().nullable(),
    tick_count: z.number().int(),
    is_streaming: z.boolean().openapi({
      description:
        "The stream runs (connected or connecting); false when the stream provider refused the symbol or the stream was stopped",
    }),
    stream_state: z.enum(["streaming", "connecting", "refused", "stopped"]).openapi({
      description:
        "What the stream provider said within the wait: the symbol taken, nothing yet (the stream goes on connecting), or the symbol refused; or the stream was stopped meanwhile",
    }),
    refused_reason: z.string().nullable().openapi({ description: "The stream provider's reason, when it refused" }),
  })
  .openapi("Subscription");
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const RealtimeStatusSchema = z
  .object({
    streaming_count: z.number().int(),
    active_tickers: z.array(z.string()),
    ws_connections: z.record(z.string(), z.number().int()),
    total_ws_clients: z.number().int(),
    stale_tickers: z.array(z.string()),
    worker_running: z.boolean().openapi({
      description: "The registry answered and the object of every streamed ticker answered its status",
    }),
    objects_answering: z.number().int().openapi({ description: "Streamed tickers whose object answered" }),
    restore_last_run: z
      .object({ at: z.string(), restored: z.number().int(), failed: z.number().int() })
      .nullable()
      .openapi({
        description:
          "The restore cron's last run (every 5 minutes): when, streams restored, restores that failed; null if none within a day",
      }),
    refused_tickers: z.record(z.string(), z.object({ reason: z.string(), at: z.string() })).openapi({
      description:
        "Tickers the stream provider refused within the last day (their streams stopped), with its reason and when",
    }),
    out_of_session: z
      .record(z.string(), z.object({ candles: z.number().int(), last_at: z.string().nullable() }))
      .openapi({
        description:
          "Per stored subscription: 1-minute candles the stream sent outside the venue's session (a weekend, before the open), counted and never stored, and the last one's minute",
      }),
  })
  .openapi("RealtimeStatus");
export type RealtimeStatus = z.infer<typeof RealtimeStatusSchema>;

export const QuotesAnswerSchema = z
  .object({
    count: z.number().int(),
    tickers: z.array(z.string()),
    quotes: z.record(z.string(), QuoteSchema.nullable()),
    errors: z.record(z.string(), z.string()).openapi({
      description: "Ticker -> why it has no quote: not a symbol, unknown to the provider, or the provider failing",
    }),
  })
  .openapi("Quotes");
export type QuotesAnswer = z.infer<typeof QuotesAnswerSchema>;

export const UnsubscribedSchema = z
  .object({ status: z.literal("unsubscribed"), ticker: z.string() })
  .openapi("Unsubscribed");
export type UnsubscribeAnswer = z.infer<typeof UnsubscribedSchema>;
