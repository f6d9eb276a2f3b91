import { describe, expect, it } from "vitest";
import { databaseUnavailable } from "../../src/db/errors";
import { storableText } from "../../src/db/text";

describe("database errors", () => {
  it("tells a lost or refused connection (503) from a refused query (a bug, 500)", () => {
    expect(databaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    // Drizzle's wrapper around the runtime's ErrorEvent, as a dropped socket reaches us.
    const dropped = new Error("Failed query: select 1", {
      cause: { message: "Uncaught Error: Network connection lost.", error: new Error("Network connection lost.") },
    });
    expect(databaseUnavailable(dropped)).toBe(true);
    expect(
      databaseUnavailable(
        Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      ),
    ).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error("sorry, too many clients already"), { code: "53300" }))).toBe(
      true,
    );
    // Two writers of overlapping rows, one rolled back: a retry succeeds.
    expect(
      databaseUnavailable(
        new Error("Failed query", { cause: Object.assign(new Error("deadlock detected"), { code: "40P01" }) }),
      ),
    ).toBe(true);
    expect(
      databaseUnavailable(
        Object.assign(new Error('date/time field value out of range: "0000-01-01"'), { code: "22008" }),
      ),
    ).toBe(false);
    expect(
      databaseUnavailable(
        new Error("Failed query", { cause: Object.assign(new Error("duplicate key"), { code: "23505" }) }),
      ),
    ).toBe(false);
    // The HTTP driver's own words, as drizzle wraps them: the endpoint unreachable, the compute unreachable.
    const viaFetch = (message: string) => new Error("Failed query: select 1", { cause: new Error(message) });
    expect(databaseUnavailable(viaFetch("Error connecting to database: TypeError: fetch failed"))).toBe(true);
    expect(databaseUnavailable(viaFetch('Server error (HTTP status 502): {"message":"unreachable"}'))).toBe(true);
    expect(databaseUnavailable(viaFetch('Server error (HTTP status 404): {"message":"no route"}'))).toBe(false);
    expect(databaseUnavailable("a string")).toBe(false);
  });

  it("stores text without the NUL Postgres refuses, within its length", () => {
    expect(storableText("AA\u0000PL", 32)).toBe("AAPL");
    expect(storableText("x".repeat(40), 32)).toHaveLength(32);
  });
});
