/**
 * The generated nets, one after another in one file (so that the unit tests can run beside them on
 * the other core, while no two nets ever run at once: the fuzzer may delete data, the concurrency
 * net compares whole-database snapshots). Each net is a module of its own; run one with `-t`, e.g.
 * `npx vitest run --project hardening -t "the fault matrix"`.
 */
import "./drift-net.net";
import "./fault-matrix.net";
import "./replay.net";
import "./concurrency.net";
import "./auth-matrix.net";
import "./fuzz.net";
