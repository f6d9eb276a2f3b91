import type { Context as HonoContext } from "hono";
import type { Context } from "../platform/context";
import { runAfterAnswer } from "../work";
import type { AppEnv } from "./env";

/** Runs `job` after the answer has gone (src/work.ts says how); a failure is logged, never thrown. */
export function inBackground(c: HonoContext<AppEnv>, job: (ctx: Context) => Promise<void>): void {
  runAfterAnswer(c.env ?? {}, c.get("deps").clock, (work) => c.executionCtx.waitUntil(work), job, c.req.path);
}
