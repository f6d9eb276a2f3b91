import { z } from "@hono/zod-openapi";
import { Dec } from "../../domain/dcf/numbers";
import { gridSteps, MAX_GRID_STEPS } from "../../domain/dcf/sensitivity";
import { BadRequestError } from "../../domain/errors";
import { forceRefresh } from "./route-parts";

const rateParam = (dflt: string) =>
  z
    .string()
    .regex(/^-?\d{1,2}(\.\d{1,6})?$/, "a ratio such as 0.06 (6 %)")
    .default(dflt)
    .openapi({ example: dflt });

/** The grid's parameters (the workspace's sensitivity widget takes the same). */
export const SensitivityQuery = {
  model: z
    .enum(["fcf", "ddm"], {
      error: "model is fcf or ddm (the models with a terminal growth; eps ends on a P/E)",
    })
    .default("fcf"),
  wacc_min: rateParam("0.06"),
  wacc_max: rateParam("0.16"),
  wacc_step: rateParam("0.02"),
  growth_min: rateParam("0.01"),
  growth_max: rateParam("0.05"),
  growth_step: rateParam("0.01"),
  force_refresh: forceRefresh,
};

/** A grid axis from the query, or a 400 naming the parameters that make it empty or too large. */
function axis(name: "wacc" | "growth", min: string, max: string, step: string, bounds: [number, number]) {
  const [lo, hi] = [new Dec(min), new Dec(max)];
  const problems: { path: string; message: string }[] = [];
  if (lo.lt(bounds[0]) || hi.gt(bounds[1]))
    problems.push({ path: `${name}_min`, message: `${name} rates stay within [${bounds[0]}, ${bounds[1]}]` });
  const steps = gridSteps(lo, hi, new Dec(step));
  if (!steps)
    problems.push({
      path: `${name}_step`,
      message: `${name}_min <= ${name}_max and a positive ${name}_step making at most ${MAX_GRID_STEPS} values`,
    });
  if (problems.length || !steps) throw new BadRequestError(problems.map((p) => p.message).join("; "), problems);
  return steps;
}

/** The grid asked for: its axes checked (400 naming the parameters), as the service takes it. */
export function sensitivityInput(ticker: string, q: z.output<z.ZodObject<typeof SensitivityQuery>>) {
  return {
    ticker,
    model: q.model,
    rates: axis("wacc", q.wacc_min, q.wacc_max, q.wacc_step, [0.005, 1]),
    growths: axis("growth", q.growth_min, q.growth_max, q.growth_step, [-0.05, 0.2]),
    forceRefresh: q.force_refresh,
  };
}
