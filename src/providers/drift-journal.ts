import type { DriftSink, SchemaDrift } from "../domain/drift";

/** One document's drifts, with what the document was about. */
export interface DriftEntry {
  subject: string;
  drift: SchemaDrift;
}

/**
 * The drifts the provider clients of one piece of work (a request, a cron job) read around, kept
 * until the work is done and then recorded as schema_drift verdicts (services/monitoring/record-drifts),
 * so that reporting never delays or fails an answer. One entry per subject, document and path.
 */
export class DriftJournal implements DriftSink {
  #entries = new Map<string, DriftEntry>();

  report(subject: string, drifts: readonly SchemaDrift[]): void {
    for (const drift of drifts) {
      const key = `${subject}|${drift.provider}|${drift.document}|${drift.path}`;
      if (!this.#entries.has(key)) this.#entries.set(key, { subject, drift });
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entries so far, emptying the journal (a second flush records nothing twice). */
  take(): DriftEntry[] {
    const out = [...this.#entries.values()];
    this.#entries.clear();
    return out;
  }
}
