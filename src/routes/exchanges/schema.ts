import { z } from "@hono/zod-openapi";

export const LIFETIME =
  "Cache-Control private, max-age: until the next open or close of a venue in the answer, at most 5 minutes (is_open changes then)";

const instant = (example: string, description: string) => z.string().openapi({ example, description });

const VenueDaySchema = z
  .object({
    date: z.string().openapi({ example: "2026-11-27", description: "The venue's local calendar day" }),
    trading: z.boolean(),
    closed_reason: z
      .string()
      .nullable()
      .openapi({ example: null, description: "Why there is no session: weekend, or holiday: <its name>" }),
    open: instant("2026-11-27T08:00:00.000Z", "The session's open (UTC), null on a closed day").nullable(),
    close: instant("2026-11-27T16:30:00.000Z", "The session's close (UTC), null on a closed day").nullable(),
    early_close: z.boolean().openapi({ description: "The session closes before the regular hours' close" }),
  })
  .openapi("VenueDay");

export const ExchangeSummarySchema = z
  .object({
    code: z.string().openapi({ example: "XETRA", description: "The catalogue's exchange code (listings' `exchange`)" }),
    mic: z.string().nullable().openapi({ example: "XETR", description: "ISO 10383 market identifier code" }),
    name: z.string().openapi({ example: "Xetra (Deutsche Börse)" }),
    time_zone: z.string().openapi({ example: "Europe/Berlin", description: "IANA time zone of the hours" }),
    hours: z
      .object({ open: z.string().openapi({ example: "09:00" }), close: z.string().openapi({ example: "17:30" }) })
      .openapi({ description: "The regular session, local time" }),
    is_open: z.boolean().openapi({ description: "A session is in progress now (the service's clock)" }),
    today: VenueDaySchema,
    next_open: instant("2026-11-30T08:00:00.000Z", "When the next session opens (after the current one, while open)"),
    next_close: instant("2026-11-27T16:30:00.000Z", "When the current session closes, or else the next one"),
    calendar_source: z
      .object({
        name: z.string(),
        url: z.string().openapi({ example: "https://www.xetra.com/xetra-en/newsroom/trading-calendar" }),
        as_of: z.string().openapi({ example: "2026-11-27", description: "When the published calendar was read" }),
      })
      .openapi({ description: "The venue's published calendar the holidays and early closes come from" }),
    calendar_through: z.string().openapi({
      example: "2027-12-31",
      description: "The last day whose holidays the service knows; after it only weekends are known closed",
    }),
  })
  .openapi("ExchangeSummary");

export const ExchangesSchema = z
  .object({
    as_of: instant("2026-11-27T10:00:00.000Z", "The instant `is_open` and the next open and close refer to"),
    count: z.number().int(),
    exchanges: z.array(ExchangeSummarySchema),
  })
  .openapi("Exchanges");
export type ExchangesBody = z.infer<typeof ExchangesSchema>;

export const ExchangeSchema = ExchangeSummarySchema.extend({
  as_of: instant("2026-11-27T10:00:00.000Z", "The instant `is_open` and the next open and close refer to"),
  calendar_years: z.array(z.string()).openapi({
    example: ["2026", "2027"],
    description: "The years whose holidays and early closes are listed: this year and the next, as far as known",
  }),
  calendar_note: z.string().optional().openapi({
    description: "Present when a year asked for is not in the venue's calendar yet (only weekends are known closed)",
  }),
  holidays: z
    .array(z.object({ date: z.string().openapi({ example: "2026-12-24" }), name: z.string() }))
    .openapi({ description: "Full-day closures of the years listed, by date" }),
  early_closes: z
    .array(
      z.object({
        date: z.string().openapi({ example: "2026-12-30" }),
        close: z.string().openapi({ example: "14:00" }),
      }),
    )
    .openapi({ description: "Shortened sessions of the years listed, with their local closing time" }),
}).openapi("Exchange");
export type ExchangeBody = z.infer<typeof ExchangeSchema>;
