import { recordVerdicts } from "../../db/repositories/validation-results";
import { BadRequestError } from "../../domain/errors";
import { askedProviders } from "../../domain/fundamentals/asked-providers";
import { chooseFigures } from "../../domain/fundamentals/choose-figures";
import { currenciesOf } from "../../domain/fundamentals/delayed-figures";
import type { Json } from "../../domain/fundamentals/rendered-outcome";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { type Instrument, type InstrumentQuery, resolveInstrument } from "../shared/resolve-instrument";
import { convertRendered } from "./convert-rendered";
import { gatherFundDetails, gatherRendered, gatherShareRecords } from "./gather-rendered";
import { shapeFundDocument, shapeRaw, shapeShareDocument } from "./shape-rendered";

export interface RenderedQuery extends InstrumentQuery {
  /** Provider names to ask; all when absent. */
  provider?: string;
  fmt: "eodhd" | "raw";
  nocache: boolean;
  /** Every money figure in this currency (fmt=eodhd only). */
  convert?: string;
}

export interface RenderedAnswer {
  body: Json;
  /** Every asked provider answered (or does not apply): then the answer is cached. */
  complete: boolean;
}

/**
 * One document: the providers' answers and the stored figures (gather-rendered), each figure's
 * source chosen and the pages judged (domain/fundamentals/choose-figures, the page verdicts
 * stored), then the layout asked (shape-rendered).
 */
async function build(
  ctx: Context,
  instrument: Instrument,
  asked: readonly string[],
  fmt: "eodhd" | "raw",
): Promise<RenderedAnswer> {
  const inputs = await gatherRendered(ctx, instrument, asked);
  const { delayed, today, useDatabase } = inputs;
  const summary = delayed?.fetched?.summary ?? null;
  const figures = chooseFigures({
    delayed: delayed && { outcome: delayed.outcome, verdicts: delayed.verdicts, summary },
    snapshots: inputs.snapshots,
    pages: inputs.pages,
    target: inputs.target,
    today,
  });
  const { scrapedVerdicts } = figures;
  if (scrapedVerdicts.length)
    await recordVerdicts(ctx.db, {
      ticker: instrument.listing.ticker,
      day: today,
      at: ctx.clock.now(),
      verdicts: scrapedVerdicts,
    });

  const complete = Object.values(figures.outcomes).every((o) => !o.failed);
  if (fmt === "raw") return { body: shapeRaw(figures.outcomes, delayed?.fetched ?? null), complete };
  if (instrument.asset.quoteType === "ETF") {
    const details = await gatherFundDetails(ctx, instrument, delayed?.fund ?? null, useDatabase);
    const quoted = (summary && currenciesOf(summary).quote) ?? inputs.snapshots[0]?.currency ?? null;
    return { body: shapeFundDocument(instrument, figures, details, today, quoted), complete };
  }
  const records = await gatherShareRecords(ctx, instrument, useDatabase);
  const body = shapeShareDocument(
    instrument,
    figures,
    {
      delayedAnswered: delayed?.outcome.status === "ok",
      summary,
      snapshots: inputs.snapshots,
      statements: inputs.statements,
      earnings: inputs.earnings,
      trends: inputs.trends,
      ...records,
    },
    today,
  );
  return { body, complete };
}

/**
 * GET /fundamental: the rendered document (fmt=eodhd) or each provider's answer (fmt=raw), for the
 * listing chosen as /eod chooses it. Cached one hour when every asked provider answered; `nocache`
 * builds it again; `convert` gives every money figure in another currency.
 */
export async function getRenderedFundamentals({ ctx, input }: { ctx: Context; input: RenderedQuery }): Promise<Json> {
  if (input.convert && input.fmt === "raw")
    throw new BadRequestError(
      "convert applies to the rendered document (fmt=eodhd), not to the providers' raw answers",
    );
  const asked = askedProviders(input.provider);
  const instrument = await resolveInstrument({ ctx, input });
  // One build per listing at a time: concurrent requests take its document. Cached, and kept
  // elsewhere (the edge), only when every asked provider answered: a waiter, which cannot know
  // that of another builder's document, does not keep it.
  let complete = false;
  const { value: body } = await readThrough(ctx, {
    key: cacheKeys.fundamentals(`${instrument.listing.id}:${input.fmt}:${asked.join(",")}`),
    ttlSeconds: cacheTtls(ctx.config).fundamentals,
    lease: { listingId: instrument.listing.id, scope: "fundamentals" },
    fresh: input.nocache,
    build: async () => {
      const answer = await build(ctx, instrument, asked, input.fmt);
      complete = answer.complete;
      return answer.body;
    },
    shouldCache: () => complete,
  });
  if (!input.convert) return body;
  // Converted after the cache: the document is cached in its own currencies, each answer at the
  // rates stored by then, and a converted answer is not kept at the edge (its rates move on).
  ctx.journal.keeping.notKept();
  return convertRendered(ctx, body, input.convert);
}
