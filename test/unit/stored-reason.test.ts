import { describe, expect, it } from "vitest";
import { ServiceError } from "../../src/domain/errors";
import { ProviderError } from "../../src/providers/errors";
import { storedReason } from "../../src/services/shared/stored-reason";

describe("a failure as it is stored for any key to read", () => {
  it("keeps a provider's or the service's own words, and only the class of anything else", () => {
    expect(storedReason(new ProviderError("delayed_provider", "timeout", "no complete answer within 8000 ms"))).toBe(
      "delayed_provider: no complete answer within 8000 ms",
    );
    expect(
      storedReason(new ServiceError("UPSTREAM_UNAVAILABLE", "The catalogue-refresh queue refused the run's listings")),
    ).toBe("The catalogue-refresh queue refused the run's listings");
    // A database error's text carries its statement and values: never stored.
    const sqlError = new Error(
      'Failed query: insert into "refresh_items" ("run_id", "reason") values ($1, $2)\nparams: 7,secret',
    );
    expect(storedReason(sqlError)).toBe("an internal error (details in the service's logs)");
    expect(storedReason(Object.assign(new Error("Failed query: select 1"), { cause: { code: "08006" } }))).toBe(
      "the database could not be reached",
    );
    expect(storedReason("a thrown string")).toBe("an internal error (details in the service's logs)");
  });
});
