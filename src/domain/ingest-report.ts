import type { DateRange } from "./ingest-plan";

export interface IngestError {
  provider: string;
  message: string;
  /** A retry may succeed (timeout, 5xx, 429, a malformed answer); false when the provider said it has nothing. */
  transient: boolean;
  /** Not asked at all: the request's deadline had passed before this provider's turn. */
  unasked?: boolean;
}

/**
 * `up_to_date`: nothing was missing, or the providers had nothing newer; `ingested`: rows were
 * written; `failed`: something was missing and no provider answered.
 */
export type IngestStatus = "ingested" | "up_to_date" | "failed";

/** What one ingestion did for one listing: the same report for every request that asked for it together. */
export interface IngestReport {
  status: IngestStatus;
  /** The window this ingestion was asked to make sure is stored. */
  wanted: DateRange;
  /** The windows that were missing and asked of the providers. */
  requested: DateRange[];
  /** Windows stored from the stream provider, asked again of the delayed provider to store adjusted closes. */
  replaced: DateRange[];
  /** The provider whose bars were stored (null when nothing was asked or every provider failed). */
  source: string | null;
  /** Bars the provider returned, and rows inserted or changed (0 on a rerun of the same range). */
  fetched: number;
  written: number;
  errors: IngestError[];
}

/** The report of an ingestion that asked no provider: nothing missing, or (with errors) it could not run. */
export function reportWithoutFetch(wanted: DateRange, status: IngestStatus, errors: IngestError[] = []): IngestReport {
  return { status, wanted, requested: [], replaced: [], source: null, fetched: 0, written: 0, errors };
}

/** The status a report's counts and source amount to. */
export const statusOf = (r: Omit<IngestReport, "status">): IngestStatus =>
  r.written > 0 ? "ingested" : r.requested.length === 0 || r.source !== null ? "up_to_date" : "failed";
