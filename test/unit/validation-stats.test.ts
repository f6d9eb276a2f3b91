import { describe, expect, it } from "vitest";
import { successRate, type VerdictCount, validationStatistics } from "../../src/domain/monitoring/validation-stats";

const v = (provider: string, field: string, status: VerdictCount["status"], n: number): VerdictCount => ({
  provider,
  field,
  status,
  n,
});

describe("validation statistics", () => {
  it("totals, quality over the values given, providers ranked both ways, fields most often refused", () => {
    const counts = [
      v("delayed_provider", "pe_ratio", "valid", 8),
      v("delayed_provider", "pe_ratio", "out_of_range", 2),
      v("delayed_provider", "beta", "null", 5),
      v("scraped_onvista", "dividend_yield", "valid", 3),
      v("scraped_onvista", "dividend_yield", "outlier", 3),
      v("scraped_businessinsider", "pe_ratio", "valid", 4),
      v("scraped_businessinsider", "eps_ttm", "null", 2),
    ];
    const s = validationStatistics(counts);
    expect(s).toMatchObject({
      period: "last_7_days",
      total_values_validated: 27,
      total_valid: 15,
      total_outliers: 3,
      total_out_of_range: 2,
      total_nulls: 7,
      // 15 valid of 20 given.
      overall_quality_score: 0.75,
    });
    expect(s.most_reliable_providers.map((p) => [p.provider, p.success_rate])).toEqual([
      ["scraped_businessinsider", 1],
      ["delayed_provider", 0.8],
      ["scraped_onvista", 0.5],
    ]);
    expect(s.least_reliable_providers[0]).toEqual({ provider: "scraped_onvista", success_rate: 0.5, values: 6 });
    expect(s.fields_most_often_invalid).toEqual([
      { field: "dividend_yield", invalid: 3, total: 6 },
      { field: "pe_ratio", invalid: 2, total: 14 },
    ]);
  });

  it("empty lists and a null score without data; only nulls give no rate", () => {
    expect(validationStatistics([])).toEqual({
      period: "last_7_days",
      total_values_validated: 0,
      total_valid: 0,
      total_outliers: 0,
      total_out_of_range: 0,
      total_nulls: 0,
      total_schema_drift: 0,
      overall_quality_score: null,
      most_reliable_providers: [],
      least_reliable_providers: [],
      fields_most_often_invalid: [],
      schema_drift: [],
    });
    expect(successRate([v("p", "f", "null", 4)])).toBeNull();
  });
});
