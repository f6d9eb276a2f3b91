/**
 * Plotly figures for the workspace's chart widgets: candlesticks with volume in a pane below,
 * averages and bands drawn over the price, oscillators each in a pane of its own, colours of the
 * workspace's dark or light theme. Pure: the routes give the numbers.
 */

import { DAY_MS, isoDay } from "../instants";

export type Theme = "dark" | "light";

/** A Plotly figure as the workspace renders it. */
export interface Figure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}

/** The workspace's backgrounds (its own: #151518 dark, white light) and colours that read on them. */
const PALETTE = {
  dark: {
    background: "#151518",
    font: "#D1D4DC",
    grid: "#2A2E39",
    up: "#26A69A",
    down: "#EF5350",
    lines: ["#F5C542", "#42A5F5", "#AB47BC", "#FF7043", "#66BB6A", "#EC407A"],
  },
  light: {
    background: "#FFFFFF",
    font: "#131722",
    grid: "#E0E3EB",
    up: "#089981",
    down: "#F23645",
    lines: ["#E65100", "#1565C0", "#6A1B9A", "#C62828", "#2E7D32", "#AD1457"],
  },
} as const;

export interface Candle {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

/** A line: its name and its values on the candles' dates (null where it has none). */
export interface Line {
  name: string;
  x: readonly string[];
  y: readonly (number | null)[];
}

/** A lower pane: a title and its lines (an oscillator and its signal, say). */
export interface Pane {
  title: string;
  lines: Line[];
  /** Horizontal guides (30 and 70 for an RSI). */
  guides?: number[];
}

export interface MarketChart {
  title?: string;
  /** Omitted when the widget shows indicators alone. */
  candles?: Candle[];
  /** Drawn over the price (averages, bands). */
  overlays?: Line[];
  panes?: Pane[];
  /** The price axis' title (e.g. the currency). */
  priceLabel?: string;
}

/** The relative heights: the price pane is the chart; each lower pane a strip under it. */
const PRICE_WEIGHT = 3;
const VOLUME_WEIGHT = 1;
const PANE_WEIGHT = 1.2;
/** The gap between panes, as a fraction of the figure's height. */
const GAP = 0.03;

const axisName = (i: number) => (i === 0 ? "yaxis" : `yaxis${i + 1}`);
const axisRef = (i: number) => (i === 0 ? "y" : `y${i + 1}`);

function baseLayout(theme: Theme, title?: string): Record<string, unknown> {
  const p = PALETTE[theme];
  return {
    paper_bgcolor: p.background,
    plot_bgcolor: p.background,
    font: { color: p.font, family: "Inter, Arial, sans-serif", size: 12 },
    margin: { l: 50, r: 60, t: title ? 40 : 16, b: 30 },
    showlegend: true,
    legend: { orientation: "h", x: 0, y: 1.02, yanchor: "bottom", bgcolor: "rgba(0,0,0,0)" },
    hovermode: "x unified",
    ...(title ? { title: { text: title, x: 0.01, font: { size: 14 } } } : {}),
  };
}

/**
 * A market chart: candles (with volume below, coloured by the day's direction) when given,
 * overlays on the price axis, and each pane stacked under them on its own y axis, all sharing the
 * date axis. Dates without a bar (weekends, holidays) are left out of the axis.
 */
export function marketFigure(chart: MarketChart, theme: Theme): Figure {
  const p = PALETTE[theme];
  const candles = chart.candles ?? [];
  const hasPrice = candles.length > 0 || (chart.overlays?.length ?? 0) > 0;
  const hasVolume = candles.some((c) => c.volume !== null);
  const panes = chart.panes ?? [];
  const stack: { weight: number; title: string }[] = [
    ...(hasPrice ? [{ weight: PRICE_WEIGHT, title: chart.priceLabel ?? "Price" }] : []),
    ...(hasVolume ? [{ weight: VOLUME_WEIGHT, title: "Volume" }] : []),
    ...panes.map((pane) => ({ weight: PANE_WEIGHT, title: pane.title })),
  ];
  const total = stack.reduce((s, x) => s + x.weight, 0);
  const usable = 1 - GAP * Math.max(0, stack.length - 1);
  const layout = baseLayout(theme, chart.title);
  // Top to bottom: the first pane ends at 1.
  let top = 1;
  stack.forEach((s, i) => {
    const height = (s.weight / total) * usable;
    layout[axisName(i)] = {
      domain: [Math.max(0, top - height), top],
      title: { text: s.title, font: { size: 11 } },
      gridcolor: p.grid,
      zerolinecolor: p.grid,
      side: "right",
      fixedrange: false,
    };
    top -= height + GAP;
  });
  const dates = candles.map((c) => c.date);
  layout.xaxis = {
    type: "date",
    rangeslider: { visible: false },
    gridcolor: p.grid,
    anchor: axisRef(stack.length - 1),
    // Daily bars: weekends and holidays left out of the axis (weekly and monthly bars need no breaks).
    ...(isDaily(dates) ? { rangebreaks: [{ values: missingWeekdays(dates) }, { bounds: ["sat", "mon"] }] } : {}),
  };
  const data: Record<string, unknown>[] = [];
  let colour = 0;
  const nextColour = () => p.lines[colour++ % p.lines.length];
  if (candles.length)
    data.push({
      type: "candlestick",
      name: chart.priceLabel ? `Price (${chart.priceLabel})` : "Price",
      x: dates,
      open: candles.map((c) => c.open),
      high: candles.map((c) => c.high),
      low: candles.map((c) => c.low),
      close: candles.map((c) => c.close),
      increasing: { line: { color: p.up }, fillcolor: p.up },
      decreasing: { line: { color: p.down }, fillcolor: p.down },
      yaxis: "y",
    });
  const lineTrace = (line: Line, yaxis: string) => ({
    type: "scatter",
    mode: "lines",
    name: line.name,
    x: line.x,
    y: line.y,
    line: { width: 1.5, color: nextColour() },
    yaxis,
  });
  for (const line of chart.overlays ?? []) data.push(lineTrace(line, "y"));
  let axis = hasPrice ? 1 : 0;
  if (hasVolume) {
    data.push({
      type: "bar",
      name: "Volume",
      x: dates,
      y: candles.map((c) => c.volume),
      marker: { color: candles.map((c) => (c.close >= c.open ? p.up : p.down)) },
      opacity: 0.6,
      yaxis: axisRef(axis),
      showlegend: false,
    });
    axis += 1;
  }
  const shapes: Record<string, unknown>[] = [];
  for (const pane of panes) {
    for (const line of pane.lines) data.push(lineTrace(line, axisRef(axis)));
    for (const level of pane.guides ?? [])
      shapes.push({
        type: "line",
        xref: "paper",
        x0: 0,
        x1: 1,
        yref: axisRef(axis),
        y0: level,
        y1: level,
        line: { color: p.grid, width: 1, dash: "dot" },
      });
    axis += 1;
  }
  if (shapes.length) layout.shapes = shapes;
  return { data, layout };
}

/** Whether bars are daily: most consecutive dates at most four days apart (a long weekend). */
function isDaily(dates: readonly string[]): boolean {
  if (dates.length < 2) return false;
  let close = 0;
  for (let i = 1; i < dates.length; i++)
    if (Date.parse(`${dates[i]}T00:00:00Z`) - Date.parse(`${dates[i - 1]}T00:00:00Z`) <= 4 * DAY_MS) close += 1;
  return close * 2 > dates.length - 1;
}

/** Weekdays between the first and last date without a bar (holidays): left out of the date axis. */
function missingWeekdays(dates: readonly string[]): string[] {
  const have = new Set(dates);
  const sorted = [...dates].sort();
  const first = Date.parse(`${sorted[0]}T00:00:00Z`);
  const last = Date.parse(`${sorted.at(-1)}T00:00:00Z`);
  const out: string[] = [];
  for (let t = first; t <= last; t += DAY_MS) {
    const d = new Date(t);
    const day = d.getUTCDay();
    const iso = isoDay(d);
    if (day !== 0 && day !== 6 && !have.has(iso)) out.push(iso);
  }
  return out;
}

/** An empty chart that says why (the workspace shows it instead of an error). */
export function emptyFigure(message: string, theme: Theme): Figure {
  const p = PALETTE[theme];
  return {
    data: [],
    layout: {
      ...baseLayout(theme),
      xaxis: { visible: false },
      yaxis: { visible: false },
      annotations: [
        {
          text: message,
          xref: "paper",
          yref: "paper",
          x: 0.5,
          y: 0.5,
          showarrow: false,
          font: { size: 14, color: p.font },
        },
      ],
    },
  };
}

/** A column series: its name and values by date (a dividend per ex-date, say). */
export interface Columns {
  title?: string;
  name: string;
  x: readonly string[];
  y: readonly number[];
  /** The value axis' title (e.g. the currency). */
  valueLabel: string;
}

/** Columns on a date axis, in the theme's first line colour (dividends over time). */
export function columnsFigure(c: Columns, theme: Theme): Figure {
  const p = PALETTE[theme];
  return {
    data: [{ type: "bar", name: c.name, x: c.x, y: c.y, marker: { color: p.lines[0] } }],
    layout: {
      ...baseLayout(theme, c.title),
      xaxis: { type: "date", gridcolor: p.grid },
      yaxis: { title: { text: c.valueLabel }, gridcolor: p.grid, rangemode: "tozero" },
    },
  };
}
