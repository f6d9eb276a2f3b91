import { z } from "zod";
import { describe, type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import { MACRO } from "../../domain/provider-names";
import { isDay, readWire, type WireNode } from "../../domain/wire-schema";
import { ProviderError } from "../errors";
import { getJson } from "../http";
import { observed } from "../isolate";
import { type ClientOptions, ProviderClient } from "../options";

/** A series' latest real observation: its date and its value as the provider writes it (DGS10: percent). */
export interface Observation {
  date: string;
  value: string;
  /** Observations of another shape than FRED's, left out (schema_drift verdicts for the operator). */
  drifts: SchemaDrift[];
}

/** Observations asked for at once, newest first: enough to step over a run of holidays ("."). */
const LOOKBACK = 10;

/** What the client reads of an answer, observation by observation: one of another shape costs itself only. */
const OBSERVATIONS: WireNode = {
  fields: { observations: { list: { fields: { date: { required: "string" }, value: { required: "string" } } } } },
};
const errorSchema = z.object({ error_code: z.number(), error_message: z.string() });

/** The macro provider's client options: its API key besides the common ones (without it FRED is not asked). */
export interface FredOptions extends ClientOptions {
  apiKey: string | undefined;
}

/**
 * FRED's series observations (the macro provider). Its errors come as `{error_code, error_message}`
 * (HTTP 400 for a bad key or an unknown series, 429 past ~120 requests a minute); a missing day is
 * the value "." and is skipped. Without a key it is not asked: `configured` is false.
 */
export class FredClient extends ProviderClient {
  readonly name = MACRO;

  private readonly apiKey: string | undefined;

  constructor(o: FredOptions) {
    super(o);
    this.apiKey = o.apiKey;
  }

  get configured(): boolean {
    return this.apiKey !== undefined;
  }

  /** The newest observation with a value; a series without one among the latest is a bad answer. */
  latestObservation(seriesId: string): Promise<Observation> {
    return observed(MACRO, this.watch, () => this.fetchLatest(seriesId));
  }

  /**
   * A series' real observations between two days (both included), oldest first: "." days and
   * observations of another shape are left out (the latter reported as drift).
   */
  observations(seriesId: string, from: string, to: string): Promise<{ date: string; value: string }[]> {
    return observed(MACRO, this.watch, async () => {
      const { days, drifts } = await this.fetchDays(seriesId, {
        sort_order: "asc",
        observation_start: from,
        observation_end: to,
      });
      if (drifts.length) this.drifts.report(seriesId, uniqueDrifts(drifts));
      return days.filter((o) => isDecimal(o.value)).map((o) => ({ date: o.date, value: o.value.trim() }));
    });
  }

  private async fetchLatest(seriesId: string): Promise<Observation> {
    const { days, drifts } = await this.fetchDays(seriesId, { sort_order: "desc", limit: String(LOOKBACK) });
    const latest = days.filter((o) => isYield(o.value)).sort((a, b) => (a.date < b.date ? 1 : -1))[0];
    if (!latest)
      throw new ProviderError(
        MACRO,
        "bad_response",
        `no usable observation of ${seriesId} among the latest ${LOOKBACK}`,
      );
    return { date: latest.date, value: latest.value.trim(), drifts: uniqueDrifts(drifts) };
  }

  /** One request of observations: those dated a day, and the drift of the others. */
  private async fetchDays(
    seriesId: string,
    params: Record<string, string>,
  ): Promise<{ days: { date: string; value: string }[]; drifts: SchemaDrift[] }> {
    if (!this.apiKey) throw new ProviderError(MACRO, "unavailable", "not configured (MACRO_API_KEY is not set)");
    const q = new URLSearchParams({ series_id: seriesId, api_key: this.apiKey, file_type: "json", ...params });
    const { status, body } = await getJson(MACRO, `${this.baseUrl}/fred/series/observations?${q}`, {
      timeoutMs: this.timeoutMs,
      deadline: this.deadline,
    });
    const error = errorSchema.safeParse(body);
    // FRED's own error envelope, whatever the status it came with (never its text: it may quote the key).
    if (error.success) throw refusal(seriesId, error.data.error_message);
    if (status !== 200) throw new ProviderError(MACRO, "bad_response", `HTTP ${status}`);
    const drifts: SchemaDrift[] = [];
    const read = readWire(body, OBSERVATIONS, { provider: MACRO, document: "observations", path: "" }, drifts) as {
      observations?: { date: string; value: string }[];
    };
    if (!Array.isArray(read?.observations))
      throw new ProviderError(MACRO, "bad_response", "an answer without a list of observations");
    const days = read.observations.filter((o) => {
      if (isDay(o.date)) return true;
      drifts.push({
        provider: MACRO,
        document: "observations",
        path: "observations[].date",
        expected: "a day (YYYY-MM-DD)",
        seen: describe(o.date),
      });
      return false;
    });
    return { days, drifts };
  }
}

/** A plain positive decimal as FRED writes an exchange rate ("1.0876", "149.5"); "." is none. */
const isDecimal = (value: string): boolean => /^\d{1,9}(\.\d{1,10})?$/.test(value.trim()) && Number(value) > 0;

/**
 * A real observation: a plain decimal within what a government yield has been (-5 % to 25 %).
 * "." (no observation), a blank, "0x1A" or "1e7" are not one, and are skipped.
 */
export function isYield(value: string): boolean {
  const v = value.trim();
  return /^-?\d{1,2}(\.\d{1,6})?$/.test(v) && Number(v) >= -5 && Number(v) <= 25;
}

/** FRED's error message as a failure: an unknown series is an answer; a refused key is the service's own problem. */
function refusal(seriesId: string, message: string): ProviderError {
  if (/series does not exist/i.test(message)) return new ProviderError(MACRO, "not_found", `no series ${seriesId}`);
  if (/api_key/i.test(message))
    return new ProviderError(MACRO, "unavailable", "the API key was refused (MACRO_API_KEY)");
  return new ProviderError(MACRO, "unavailable", "the provider answered with an error");
}
