import { type EcbRate, readEurofxrefXml, readExrCsv } from "../../domain/fx/ecb-wire";
import { ECB } from "../../domain/provider-names";
import { ProviderError } from "../errors";
import { getText } from "../http";
import { observed } from "../isolate";
import { type ClientOptions, ProviderClient } from "../options";

export interface EcbOptions extends ClientOptions {
  /** The statistical data API's address (another host than the daily file's). */
  dataApiBaseUrl: string;
}

/**
 * The ECB's euro reference rates. The day's rates come from the daily file
 * (`/stats/eurofxref/eurofxref-daily.xml`, a few kilobytes), the last 90 days' from its sibling
 * `eurofxref-hist-90d.xml` (some 40 kilobytes), older history from the data API's series
 * EXR in windows (`/service/data/EXR/D.USD+JPY.EUR.SP00.A?startPeriod&endPeriod&format=csvdata`,
 * the currencies asked at once). No key. The data API answers 404 "No results found." for a window without a
 * publication: an empty answer, not a failure. Entries of another shape are left out and reported
 * as drift (the subject is the document).
 */
export class EcbClient extends ProviderClient {
  readonly name = ECB;
  private readonly dataApiBaseUrl: string;

  constructor(o: EcbOptions) {
    super(o);
    this.dataApiBaseUrl = o.dataApiBaseUrl;
  }

  /** The newest publication: its day and every currency's rate. */
  latest(): Promise<EcbRate[]> {
    return this.file("eurofxref-daily");
  }

  /** The publications of about the last 90 days (some 64), every currency's: one static file. */
  recent(): Promise<EcbRate[]> {
    return this.file("eurofxref-hist-90d");
  }

  private file(name: "eurofxref-daily" | "eurofxref-hist-90d"): Promise<EcbRate[]> {
    return observed(ECB, this.watch, async () => {
      const { status, text } = await getText(ECB, `${this.baseUrl}/stats/eurofxref/${name}.xml`, {
        timeoutMs: this.timeoutMs,
        deadline: this.deadline,
      });
      if (status !== 200) throw new ProviderError(ECB, "bad_response", `HTTP ${status}`);
      const read = readEurofxrefXml(text);
      if (!read || read.rates.length === 0)
        throw new ProviderError(ECB, "bad_response", `${name}.xml without a readable rate`);
      if (read.drifts.length) this.drifts.report(name, read.drifts);
      return read.rates;
    });
  }

  /** The currencies' publications between two days (both included); none in a window without one. */
  window(currencies: readonly string[], from: string, to: string): Promise<EcbRate[]> {
    return observed(ECB, this.watch, async () => {
      const q = new URLSearchParams({ startPeriod: from, endPeriod: to, format: "csvdata", detail: "dataonly" });
      const { status, text } = await getText(
        ECB,
        `${this.dataApiBaseUrl}/service/data/EXR/D.${currencies.join("+")}.EUR.SP00.A?${q}`,
        {
          timeoutMs: this.timeoutMs,
          deadline: this.deadline,
          headers: { accept: "text/csv" },
        },
      );
      if (status === 404 && /no results found/i.test(text)) return [];
      if (status !== 200) throw new ProviderError(ECB, "bad_response", `HTTP ${status}`);
      const read = readExrCsv(text);
      if (!read) throw new ProviderError(ECB, "bad_response", "a CSV answer without the columns of series EXR");
      if (read.drifts.length) this.drifts.report("EXR", read.drifts);
      return read.rates;
    });
  }
}
