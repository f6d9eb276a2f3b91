/**
 * The nets about what providers send, one after another in one file (the fault matrix fails the
 * simulators on purpose; the drift net and the replay read recorded answers). Each net is a module
 * of its own; run one with `-t`, e.g. `npx vitest run --project hardening -t "the fault matrix"`.
 * `npm test` runs this file and request-nets.test.ts at once, each on a stack of its own
 * (tools/test/run.ts).
 */
import "./drift-net.net";
import "./fault-matrix.net";
import "./replay.net";
