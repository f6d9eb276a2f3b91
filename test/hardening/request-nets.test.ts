/**
 * The nets generated from the OpenAPI document, one after another in one file: the fuzzer may
 * delete data (POST /database/cleanup) and the concurrency net compares whole-database snapshots,
 * so no two of them run at once on one database. Run one with `-t`, e.g.
 * `npx vitest run --project hardening -t "the auth matrix"`.
 */
import "./concurrency.net";
import "./auth-matrix.net";
import "./fuzz.net";
import "./side-effects.net";
