export interface Venue {
  /** The catalogue's exchange code (listings.exchange). */
  code: string;
  /** The venue's market identifier code (ISO 10383 operating or segment MIC); null for a placeholder. */
  mic: string | null;
  name: string;
  /** IANA time zone of the venue's hours. */
  timeZone: string;
  /** Regular session, local time HH:MM (one session: a lunch break is not modelled). */
  open: string;
  close: string;
  /** Full-day closures, date -> name. */
  holidays: Readonly<Record<string, string>>;
  /** Shortened sessions, date -> local closing time HH:MM. */
  earlyCloses: Readonly<Record<string, string>>;
  /** Where the calendar comes from and when it was read. */
  source: { name: string; url: string; asOf: string };
  /** The ticker suffix of its lines, at the delayed provider and in the catalogue (`MC.PA`: "PA"); null for US venues. */
  suffix: string | null;
  /** The delayed provider's exchange codes of the venue (a search hit with another code is on another venue). */
  delayedExchanges: readonly string[];
  /** The delayed provider's display name of the venue (its fullExchangeName / exchDisp). */
  delayedExchangeName: string;
  /** The stream provider's exchange prefix (`EXCHANGE:SYMBOL`). */
  streamExchange: string;
  /** The main trading currency (a line may trade in another: an ETF in USD on the LSE). */
  currency: string;
  /** ISO 3166 alpha-2 codes of the issuers whose home market the venue is. */
  countries: readonly string[];
}
