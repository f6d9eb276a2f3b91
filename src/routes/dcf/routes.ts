import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { Dec } from "../../domain/dcf/numbers";
import { gridSteps, MAX_GRID_STEPS } from "../../domain/dcf/sensitivity";
import { BadRequestError } from "../../domain/errors";
import { compareDcf, getDcf, postDcf } from "../../services/dcf/get-dcf";
import { dcfSensitivity } from "../../services/dcf/sensitivity";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, TickerParam } from "../params";
import { DcfRequestSchema, DcfResultSchema, SensitivitySchema } from "./schema";

/**
 * What the hardening nets run first so that the example request makes sense: the valuation reads
 * only what the deep enrichment stored.
 */
export const ENRICHED_FIRST = "/fundamental/deep?ticker=MC.PA&sections=highlights";

export const DcfTicker = TickerParam.openapi({ example: "MC.PA" });
const params = z.object({ ticker: DcfTicker });
export const forceRefresh = BoolParam.openapi({ description: "Recompute instead of answering the cached valuation" });
const NEVER_ENRICHED = "Never enriched (the body names the missing data: call GET /fundamental/deep first)";
const result = (description: string) => ({
  200: { description, content: { "application/json": { schema: DcfResultSchema } } },
});

const getRoute = createRoute(
  withErrors(
    {
      method: "get",
      path: "/dcf/{ticker}",
      tags: ["Valuation"],
      summary: "DCF valuation: the fcf model with the default assumptions (cached 6 hours)",
      description: NEVER_ENRICHED,
      security: keyed,
      // Reading the risk-free rate may store the macro provider's value.
      "x-writes": true,
      "x-precondition": ENRICHED_FIRST,
      request: { params, query: z.object({ force_refresh: forceRefresh }) },
      responses: result("The valuation; consensus_value equals the fcf value"),
    },
    [404],
  ),
);

const postRoute = createRoute(
  withErrors(
    {
      method: "post",
      path: "/dcf/{ticker}",
      tags: ["Valuation"],
      summary: "DCF valuation with the caller's assumptions (never cached; read-only keys allowed)",
      description: `${NEVER_ENRICHED}; 404 also when ddm is asked of a company that pays no dividend`,
      security: keyed,
      "x-precondition": ENRICHED_FIRST,
      request: {
        params,
        body: { required: true, content: { "application/json": { schema: DcfRequestSchema } } },
      },
      responses: result("The valuation of each model asked, and their weighted consensus"),
    },
    [404],
  ),
);

const compareRoute = createRoute(
  withErrors(
    {
      method: "get",
      path: "/dcf/{ticker}/compare",
      tags: ["Valuation"],
      summary: "The three models side by side with the weighted consensus and the analysts' target (cached 6 hours)",
      description: `${NEVER_ENRICHED}. A company without a dividend has its ddm at 0 with a warning, outside the consensus.`,
      security: keyed,
      "x-writes": true,
      "x-precondition": ENRICHED_FIRST,
      request: { params, query: z.object({ force_refresh: forceRefresh }) },
      responses: result("The three models and the consensus of those that have a value"),
    },
    [404],
  ),
);

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

const sensitivityRoute = createRoute(
  withErrors(
    {
      method: "get",
      path: "/dcf/{ticker}/sensitivity",
      tags: ["Valuation"],
      summary: "Value per share over discount rates (rows) x terminal growth rates (columns)",
      description: `${NEVER_ENRICHED}. A cell whose growth reaches its rate is null. At most ${MAX_GRID_STEPS} rows and ${MAX_GRID_STEPS} columns.`,
      security: keyed,
      "x-writes": true,
      "x-precondition": ENRICHED_FIRST,
      request: {
        params,
        query: z.object(SensitivityQuery),
      },
      responses: {
        200: { description: "The grid", content: { "application/json": { schema: SensitivitySchema } } },
      },
    },
    [404],
  ),
);

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

export function registerDcfRoutes(api: OpenAPIHono<AppEnv>) {
  api.openapi(getRoute, async (c) => {
    const input = { ticker: c.req.valid("param").ticker, forceRefresh: c.req.valid("query").force_refresh };
    return c.json(await getDcf({ ctx: c.get("deps"), input }), 200);
  });
  api.openapi(compareRoute, async (c) => {
    const input = { ticker: c.req.valid("param").ticker, forceRefresh: c.req.valid("query").force_refresh };
    return c.json(await compareDcf({ ctx: c.get("deps"), input }), 200);
  });
  api.openapi(sensitivityRoute, async (c) => {
    const input = sensitivityInput(c.req.valid("param").ticker, c.req.valid("query"));
    return c.json(await dcfSensitivity({ ctx: c.get("deps"), input }), 200);
  });
  api.openapi(postRoute, async (c) => {
    const b = c.req.valid("json");
    const d = (x: number | undefined) => (x === undefined ? undefined : new Dec(String(x)));
    const w = b.wacc_params ?? {};
    const answer = await postDcf({
      ctx: c.get("deps"),
      input: {
        ticker: c.req.valid("param").ticker,
        models: b.models,
        projectionYears: b.projection_years,
        terminalGrowth: d(b.terminal_growth_rate),
        riskFreeRate: d(w.risk_free_rate),
        equityRiskPremium: d(w.equity_risk_premium),
        beta: d(w.beta_override),
        costOfDebt: d(w.cost_of_debt_override),
        taxRate: d(w.tax_rate_override),
        fcfGrowth: d(b.fcf_growth_override),
        epsGrowth: d(b.eps_growth_override),
        dividendGrowth: d(b.dividend_growth_override),
        weights: b.model_weights,
      },
    });
    return c.json(answer, 200);
  });
  return api;
}
