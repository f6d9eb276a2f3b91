/** The OpenAPI document's tags, one per API area, in the order a newcomer reads them (the workspace adapter last). */
export const API_TAGS = [
  {
    name: "Assets and listings",
    description:
      "The catalogue: instruments, each identified by an ISIN, and their listings (ticker, exchange, currency), the bulk import and the daily refresh, search, index compositions, and the venues with their calendars. Start here: most other routes take a ticker and resolve it to a listing (the preferred one, or the one `exchange`, `currency` or `isin` choose).",
  },
  {
    name: "Prices",
    description:
      "Stored end-of-day bars per listing (/eod, /eod/bulk, /ticker/{symbol}/history), their dividends and splits, ingestion, and intraday minute bars. A read of a catalogue listing ingests or tops up its history first. Query parameters follow the spec's names per route: `from`/`to` on /eod, `from_date`/`to_date` on /technical; JSON says `adj_close` where the EODHD-compatible CSV says `Adj Close`.",
  },
  {
    name: "FX",
    description:
      "Daily exchange rates from the ECB's euro reference rates (31 currencies, from 1999), stored once fetched, crossed through the euro; each rate names its publication day and source, and a day without a publication carries the last one and says so. The price routes take `convert=` to answer in another currency at these rates.",
  },
  {
    name: "Technical indicators",
    description:
      "18 indicators computed on stored prices, through single, multi, chart and batch routes, and screeners over the whole catalogue. These routes never ingest: store prices first through /eod or /historical/ingest.",
  },
  {
    name: "Fundamentals",
    description:
      "The EODHD-style fundamentals document with the source of each figure, the stored deep document (highlights, statements, earnings, ratings), the earnings calendar, SEC insider transactions and ETF details.",
  },
  {
    name: "Valuation",
    description:
      "Discounted-cash-flow valuation using the fcf, eps and ddm models, their weighted consensus and a sensitivity grid, plus the risk-free rate. Valuations read only stored figures: run /fundamental/deep for a ticker first.",
  },
  {
    name: "News",
    description:
      "A ticker's news from seven providers, de-duplicated and stored, and the stored feed and statistics across instruments.",
  },
  {
    name: "Realtime",
    description:
      'Quotes (the streamed 1-minute tick, else the delayed provider\'s price) and the management of realtime streams; the WebSocket /ws/realtime/{ticker} carries the ticks themselves.\n\nWebSocket stream of one ticker\'s 1-minute ticks: connect to `wss://{host}/ws/realtime/{ticker}` with an `Upgrade: websocket` request (a plain GET answers 426). The key goes in `X-API-KEY` or `Authorization: Bearer <key>`, or, for clients that cannot set headers, in the query as `token`, `api_key` or `key` (read-only keys only, unless WS_FULL_ACCESS_KEY_IN_URL is set); the key is checked first, and a missing, unknown or refused key (or then an invalid ticker) is accepted and closed with code 1008. A full-access key starts the ticker\'s stream; a read-only key only joins one that is already running, and otherwise receives a `not_streaming` message and a normal close (1000, "not streamed"). The server sends JSON `{type, ticker, data, error, ts}` messages: `snapshot` (the last tick, when one is fresh, right after connecting), `tick` (each update of the current 1-minute bar; prices as decimal strings), `not_streaming`, and `error` (the stream provider refused the symbol, followed by close 1011). The client may send `ping` (answered with exactly `{"type":"pong"}`) or `unsubscribe` (closes this socket with 1000; the stream itself goes on); messages over 1 KiB close with 1009. A handshake counts against the key\'s rate limit; at most 5,000 sockets per ticker and 1,000 per key on one ticker (429 with Retry-After past them). See docs/realtime.md for every field and close code.\n\nThe whole protocol (messages, commands, close codes, caps) is in docs/realtime.md.',
  },
  {
    name: "Monitoring",
    description:
      "Service health (public), the validation layer's statistics, the daily canary checks of the fundamentals providers, and the alerts they raise.",
  },
  {
    name: "Cache administration",
    description:
      "Cache statistics and clearing of the cached end-of-day answers; other cache categories expire on their own.",
  },
  {
    name: "Database administration",
    description:
      "What the database stores (prices per listing, API request counts) and the cleanup of old prices and logs.",
  },
  {
    name: "Keys",
    description:
      "Managed API keys: created with a name, a kind and an optional expiry, listed, renamed, given a new expiry and revoked through the API, by a full-access key of the service's settings (the admin). A managed key is stored by its SHA-256 only and verified at the edge, read from the database at most once a minute per isolate; a revoked key is refused everywhere within 60 seconds. The keys of the settings keep working beside them.",
  },
  {
    name: "Legacy",
    description:
      "Routes kept from earlier versions that call the delayed provider using the symbol exactly as the caller wrote it; /quotes and /fundamental are preferred.",
  },
  {
    name: "Analytics workspace",
    description:
      "The OpenBB analytics workspace adapter: public discovery files and widget routes that turn the answers of other routes into metric tiles, Plotly charts or flat tables, each in the spec's path form and the query form the workspace calls. Every widget works with a read-only key.",
  },
];
