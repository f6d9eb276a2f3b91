import type { KeyKind } from "../auth";
import type { Clock, Deadline } from "../clock";
import type { Db, Transact } from "../db/client";
import type { ImportMessage } from "../domain/catalogue-import";
import type { RefreshMessage } from "../domain/catalogue-refresh";
import type { FxWindow } from "../domain/fx/coverage";
import type { ScreenRunMessage } from "../domain/screen-runs";
import type { Config } from "../env";
import type { DelayedProviderClient } from "../providers/delayed/client";
import type { DelayedFundamentalsClient } from "../providers/delayed/fundamentals";
import type { DriftJournal } from "../providers/drift-journal";
import type { EcbClient } from "../providers/fx/ecb";
import type { HistoryProvider } from "../providers/history";
import type { FredClient } from "../providers/macro/fred";
import type { NewsProvider } from "../providers/news/client";
import type { Pace } from "../providers/pace";
import type { IsinDirectory, ScrapedProvider } from "../providers/scraped/types";
import type { EdgarClient } from "../providers/sec/edgar";
import type { Cache } from "./cache";
import type { Keeping } from "./cache/keeping";
import type { KeyMeters } from "./key-meters";
import type { StreamDirectory } from "./stream-directory";
import type { UsageSink } from "./usage-sink";

/**
 * What a piece of work (a request, a cron job, a queue message, a Durable Object's write) reads:
 * the services are given this and nothing else. The composition root (src/deps.ts) builds it.
 */
export interface Context {
  config: Config;
  /** The only source of the time for business decisions (tests pin it). */
  clock: Clock;
  /** When the work must be answered by: every provider call stays inside it. */
  deadline: Deadline;
  /**
   * The database's query handle: Neon's SQL over HTTP, one round trip per query or `batch`, built
   * on first use. Without DATABASE_URL its first query throws the 503 "database is not configured".
   */
  db: Db;
  /** An interactive transaction (a lock, a read, then writes that depend on it), over a pooled connection. */
  transaction: Transact;
  /** Whether DATABASE_URL is set (what may be recorded without one is only logged). */
  databaseConfigured: boolean;
  cache: Cache;
  providers: Providers;
  /** Realtime streams; null without the Durable Object bindings. */
  streams: StreamDirectory | null;
  /** The keys' request counters (KeyMeter objects); null without the binding. */
  meters: KeyMeters | null;
  /** Where usage entries go: the queue when bound, else straight to Postgres. */
  usage: UsageSink;
  /** The catalogue refresh's queue (one message per listing of a run); null when not bound. */
  refreshQueue: Queue<RefreshMessage> | null;
  /** The bulk import's queue (a few lines of an import per message); null when not bound. */
  importQueue: Queue<ImportMessage> | null;
  /** The queued screens' queue (one share of a run per message); null when not bound. */
  screenQueue: Queue<ScreenRunMessage> | null;
  /** The backfill of the euro rates' history (one message a year's window); null when not bound. */
  fxQueue: Queue<FxWindow> | null;
  /** Whose key the request came with, once authenticated (null: a public route, a cron, a queue). */
  caller: Caller | null;
  /** What the work collects as it goes, read once it is done. */
  journal: Journal;
}

/** What a piece of work collects for after it: kept apart from what it reads. */
export interface Journal {
  /** Whether and how long the answer may be kept, as its read-throughs found (the edge cache reads it). */
  keeping: Keeping;
  /** The schema drift the providers' clients read around, recorded after the work (services/monitoring/record-drifts). */
  drifts: DriftJournal;
  /**
   * Hands over work that the answer need not wait for (a cache write after a read-through): a
   * request's goes to its `waitUntil`. A failure is logged, never thrown.
   */
  defer(work: Promise<unknown>): void;
}

/** The key of a request: its kind, the fingerprint per-key limits count by, and its id (usage rows name it). */
export interface Caller {
  kind: KeyKind;
  fingerprint: string;
  keyId: string;
  /** A full-access key of the settings: may manage keys and read any key's usage. */
  admin: boolean;
}

/** The external sources a request may call, aimed at their configured base URLs. */
export interface Providers {
  delayed: DelayedProviderClient;
  /** The delayed provider's quoteSummary and fundamentals-timeseries (our client: session, cookies, crumb). */
  delayedFundamentals: DelayedFundamentalsClient;
  stream: HistoryProvider;
  /** Web pages of trailing P/E, EPS and dividend yield (a fallback of /fundamental). */
  scraped: ScrapedProvider[];
  /** A source that states the ISIN of a ticker (the scraped site's search): how a symbol joins the catalogue. */
  isinDirectory: IsinDirectory;
  /** SEC EDGAR (Form 4 insider transactions). */
  edgar: EdgarClient;
  /** The macro provider (FRED): the risk-free rate. */
  macro: FredClient;
  /** The ECB: the euro reference rates (daily FX). */
  ecb: EcbClient;
  /** The seven news providers (keyed ones without their key are not asked). */
  news: NewsProvider[];
}

/**
 * Runs work outside a request (a cron job, a queue message) with a context of its own and no
 * request deadline, then records its drift, shares its provider rests and closes its database:
 * what the queue consumers and the cron jobs are given (src/work.ts builds it).
 */
export type RunWork = <T>(work: (ctx: Context) => Promise<T>, opts?: { pace?: Pace }) => Promise<T>;
