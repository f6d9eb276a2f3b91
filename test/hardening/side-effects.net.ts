import { describe, expect, it } from "vitest";
import { READ_ONLY_KEY } from "../helpers/keys";
import { documentedOperations } from "./openapi";
import { exampleRequest, send } from "./requests";
import { resetState, snapshotDatabase } from "./state";

/** The callers whose side effects are bounded: no key at all, and a read-only key. */
const CALLERS = [
  { name: "without a key", key: null },
  { name: "with a read-only key", key: READ_ONLY_KEY },
] as const;

/**
 * What a caller may change in the database, by its key: nothing without one (the request is
 * counted, not logged: usage rows are no state here); with a read-only key, only what a read
 * documented as storing what it fetched (`x-writes`: an ingestion, a discovery, stored news) stores.
 * Every documented operation, with its documented example.
 */
describe("side effects by key kind", async () => {
  const ops = await documentedOperations();

  it("covers the reads that store, and every write", () => {
    expect(ops.filter((o) => o.writes).length).toBeGreaterThan(5);
    expect(ops.filter((o) => o.method !== "GET").length).toBeGreaterThan(10);
  });

  it.each(ops.map((o) => [`${o.method} ${o.template}`, o] as const))("%s", async (_name, op) => {
    const { path, init, tickers } = exampleRequest(op);
    for (const caller of CALLERS) {
      await resetState(tickers);
      const before = await snapshotDatabase();
      const headers = new Headers(init.headers);
      headers.delete("x-api-key");
      if (caller.key) headers.set("x-api-key", caller.key);
      const res = await send(path, { ...init, headers });
      const after = await snapshotDatabase();
      const allowed = caller.key !== null && op.method === "GET" && op.writes;
      if (!allowed)
        expect(after, `${caller.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).toEqual(before);
    }
  });
});
