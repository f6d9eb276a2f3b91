import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { keyed, type RouteSpecificError, withErrors } from "../openapi";
import { BoolParam } from "../params";

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const TilesSchema = z
  .array(
    z.object({
      label: z.string(),
      value: z.union([z.number(), z.string()]),
      delta: z.union([z.number(), z.string(), z.null()]),
    }),
  )
  .openapi("WorkspaceMetric", { description: "Metric tiles" });

export const RowsSchema = z
  .array(z.record(z.string(), Cell))
  .openapi("WorkspaceTable", { description: "Flat rows; [] when there is nothing to show" });

export const FigureSchema = z
  .object({ data: z.array(z.record(z.string(), z.unknown())), layout: z.record(z.string(), z.unknown()) })
  .openapi("PlotlyFigure", { description: "A Plotly figure; an empty one carries an annotation saying why" });

/** A chart widget answers its figure, or with raw=true the rows it is drawn from. */
export const ChartSchema = z.union([FigureSchema, RowsSchema]);

/** The parameters every chart widget takes from the workspace. */
export const ChartQuery = {
  theme: z.enum(["dark", "light"]).default("dark").openapi({ description: "The workspace's theme" }),
  raw: BoolParam.openapi({ description: "true: the rows the chart is drawn from instead of the figure" }),
};

/**
 * A price widget's `convert`: the workspace sends every parameter, so the widget's default (empty:
 * the listing's own currency) is taken as absent; another value is a currency code.
 */
export const WidgetConvert = z
  .string()
  .regex(/^([A-Za-z]{3})?$/, "convert is a three-letter ISO 4217 currency code, or empty")
  .optional()
  .transform((s) => (s ? s.toUpperCase() : undefined))
  .openapi({
    description: "The currency to show prices in (empty: the listing's own), as convert= on the price routes",
  });

export type WidgetKind = "metric" | "chart" | "table";
const SCHEMA = { metric: TilesSchema, chart: ChartSchema, table: RowsSchema } as const;

/** A workspace route as the spec writes it (`/workspace/quote/{ticker}`) and its query form (`/workspace/quote`). */
export interface WidgetRoute<P extends z.ZodRawShape, Q extends z.ZodRawShape> {
  /** The spec's path. */
  path: `/workspace/${string}`;
  /** The path the workspace calls, with the path parameters in the query; omitted when the spec's path has none. */
  queryPath?: `/workspace/${string}`;
  kind: WidgetKind;
  summary: string;
  /** What the widget shows and where it comes from (the OpenAPI description of both forms). */
  description: string;
  params: P;
  query: Q;
  errors?: RouteSpecificError[];
  /** Extensions for the generated nets (`x-writes`, `x-example-query`, `x-precondition`). */
  extensions?: Record<string, unknown>;
  handle(c: Context<AppEnv>, input: z.output<z.ZodObject<P>> & z.output<z.ZodObject<Q>>): Promise<unknown>;
}

/** A route ready to register: its OpenAPI definition and its handler. */
interface Registration {
  path: string;
  register(api: OpenAPIHono<AppEnv>): void;
}

/**
 * Collects widget routes, then registers them static paths first: `/workspace/news/feed` and the
 * query form `/workspace/technical/multi` must be matched before `/workspace/news/{ticker}` and
 * `/workspace/technical/{ticker}` take "feed" and "multi" for tickers.
 */
export class WidgetRoutes {
  private readonly all: Registration[] = [];

  add<P extends z.ZodRawShape, Q extends z.ZodRawShape>(w: WidgetRoute<P, Q>): this {
    this.all.push(...registrations(w));
    return this;
  }

  registerOn(api: OpenAPIHono<AppEnv>): void {
    const isStatic = (r: Registration) => !r.path.includes("{");
    for (const r of [...this.all.filter(isStatic), ...this.all.filter((r) => !isStatic(r))]) r.register(api);
  }
}

/**
 * A widget's route in both forms: the spec's, and the query form the workspace calls (it never
 * fills a `{ticker}` in a path). Both validate the same parameters and answer alike.
 */
function registrations<P extends z.ZodRawShape, Q extends z.ZodRawShape>(w: WidgetRoute<P, Q>): Registration[] {
  const responses = {
    200: { description: `The widget's ${w.kind}`, content: { "application/json": { schema: SCHEMA[w.kind] } } },
  };
  const base = {
    method: "get" as const,
    tags: ["Analytics workspace"],
    summary: w.summary,
    description: w.description,
    security: keyed,
    // The workspace reads: a read-only key suffices (spec Authentication 4).
    "x-access": "any" as const,
  };
  const hasParams = Object.keys(w.params).length > 0;
  const forms = [
    createRoute(
      withErrors(
        {
          ...base,
          ...w.extensions,
          path: w.path,
          request: hasParams ? { params: z.object(w.params), query: z.object(w.query) } : { query: z.object(w.query) },
          responses,
        },
        w.errors,
      ),
    ),
  ];
  if (hasParams && w.queryPath)
    forms.push(
      createRoute(
        withErrors(
          {
            ...base,
            ...w.extensions,
            path: w.queryPath,
            summary: `${w.summary} (query form: the workspace's)`,
            description: `The query form of ${w.path}, the one the workspace calls: its path parameters go in the query, and it answers alike. ${w.description}`,
            request: { query: z.object({ ...w.params, ...w.query }) },
            responses,
          },
          w.errors,
        ),
      ),
    );
  return forms.map((route) => ({
    path: route.path,
    register: (api: OpenAPIHono<AppEnv>) => {
      api.openapi(route, async (c) => {
        // The route is built at run time, so its validated targets are read untyped (bound to the request).
        const valid = (c.req.valid as (target: "param" | "query") => Record<string, unknown>).bind(c.req);
        const input = { ...(hasParams && route.path === w.path ? valid("param") : {}), ...valid("query") };
        const body = await w.handle(c as unknown as Context<AppEnv>, input as Parameters<typeof w.handle>[1]);
        return c.json(body as z.infer<(typeof SCHEMA)[WidgetKind]>, 200);
      });
    },
  }));
}
