/**
 * The rules of the analytics workspace's own checkers (OpenBB-finance/backends-for-openbb,
 * scripts/validate_widgets.py, validate_apps.py and validate_endpoints.py), restated in TypeScript
 * so the tests hold widgets.json, apps.json and each widget's answer to them. Each check answers
 * errors (the workspace refuses the file) and warnings (it loads, but something is off); the
 * service's files must give neither.
 */

export interface Findings {
  errors: string[];
  warnings: string[];
}

const WIDGET_TYPES = new Set([
  "table",
  "chart",
  "table_ssrm",
  "markdown",
  "metric",
  "note",
  "multi_file_viewer",
  "live_grid",
  "newsfeed",
  "advanced-chart",
  "chart-highcharts",
  "youtube",
]);
const RENAMED_TYPES: Record<string, string> = { advanced_charting: "advanced-chart", ssrm_table: "table_ssrm" };
const PARAM_TYPES = new Set(["text", "number", "boolean", "date", "endpoint", "ticker", "tabs", "form"]);
const CELL_TYPES = new Set(["text", "number", "boolean", "date", "dateString", "object"]);
const CHART_DATA_TYPES = new Set(["category", "series", "time", "excluded"]);
const FORMATTERS = new Set(["int", "none", "percent", "normalized", "normalizedPercent", "dateToYear"]);
const RENDERERS = new Set(["greenRed", "titleCase", "hoverCard", "cellOnClick", "columnColor", "showCellChange"]);
const GRID_COLUMNS = 40;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === "number";

/** Params are objects, or rows (arrays) of them. */
function paramsOf(params: unknown): Json[] {
  if (!Array.isArray(params)) return [];
  return params.flatMap((p) => (isObject(p) ? [p] : Array.isArray(p) ? p.filter(isObject) : []));
}

/** validate_widgets.py: an object keyed by id; name, type and endpoint; known enums; sane grid sizes. */
export function checkWidgets(widgets: unknown): Findings {
  const f: Findings = { errors: [], warnings: [] };
  if (!isObject(widgets)) return { errors: ["widgets.json must be an object keyed by widget id"], warnings: [] };
  for (const [id, w] of Object.entries(widgets)) {
    const at = `[${id}]`;
    if (!isObject(w)) {
      f.errors.push(`${at} a widget is an object`);
      continue;
    }
    for (const field of ["name", "type", "endpoint"]) if (!(field in w)) f.errors.push(`${at} missing ${field}`);
    const type = w.type;
    if (typeof type === "string") {
      if (RENAMED_TYPES[type]) f.errors.push(`${at} type ${type} is now ${RENAMED_TYPES[type]}`);
      else if (!WIDGET_TYPES.has(type)) f.errors.push(`${at} unknown type ${type}`);
    }
    if (w.gridData !== undefined) {
      const g = w.gridData;
      if (!isObject(g)) f.errors.push(`${at} gridData is an object`);
      else {
        for (const k of ["w", "h", "minW", "maxW", "minH", "maxH"])
          if (k in g && !isNumber(g[k])) f.errors.push(`${at} gridData.${k} is a number`);
        if (isNumber(g.w) && (g.w < 10 || g.w > GRID_COLUMNS)) f.warnings.push(`${at} gridData.w ${g.w} outside 10-40`);
        if (isNumber(g.h) && (g.h < 4 || g.h > 100)) f.warnings.push(`${at} gridData.h ${g.h} outside 4-100`);
      }
    }
    for (const p of paramsOf(w.params)) {
      if (!("paramName" in p)) {
        f.errors.push(`${at} a param without paramName`);
        continue;
      }
      const pat = `${at} param ${String(p.paramName)}`;
      if (!PARAM_TYPES.has(String(p.type))) {
        f.errors.push(`${pat} unknown type ${String(p.type)}`);
        continue;
      }
      if (p.type === "endpoint" && !("optionsEndpoint" in p))
        f.errors.push(`${pat} an endpoint param needs optionsEndpoint`);
      if ("options" in p) {
        if (!Array.isArray(p.options)) f.errors.push(`${pat} options is an array`);
        else
          p.options.forEach((o, i) => {
            if (!isObject(o)) f.errors.push(`${pat} option ${i} is an object`);
            else if (!("value" in o)) f.errors.push(`${pat} option ${i} has no value`);
          });
      }
      if (
        p.type === "date" &&
        typeof p.value === "string" &&
        p.value.startsWith("$") &&
        !/^\$currentDate([+-]|$)/.test(p.value)
      )
        f.warnings.push(`${pat} unknown date modifier ${p.value}`);
    }
    if (w.source !== undefined && !(Array.isArray(w.source) && w.source.every((s) => typeof s === "string")))
      f.errors.push(`${at} source is an array of strings`);
    if (type === "table") checkTable(at, w, f);
    if (type === "chart" && w.raw !== undefined && typeof w.raw !== "boolean") f.errors.push(`${at} raw is a boolean`);
    if (w.refetchInterval !== undefined) {
      const r = w.refetchInterval;
      if (!isNumber(r) && typeof r !== "boolean") f.errors.push(`${at} refetchInterval is a number or false`);
      else if (isNumber(r) && r < 1000) f.warnings.push(`${at} refetchInterval ${r} ms is very low`);
    }
  }
  return f;
}

function checkTable(at: string, w: Json, f: Findings): void {
  const data = w.data ?? {};
  if (!isObject(data)) {
    f.errors.push(`${at} data is an object`);
    return;
  }
  if ("columnsDefs" in data) f.errors.push(`${at} columnsDefs belong in data.table`);
  if ("columns" in w) f.errors.push(`${at} columns is not a widget field: data.table.columnsDefs`);
  const table = data.table ?? {};
  if (!isObject(table)) {
    f.errors.push(`${at} data.table is an object`);
    return;
  }
  if (table.formatterFn !== undefined && !FORMATTERS.has(String(table.formatterFn)))
    f.warnings.push(`${at} unknown table formatterFn ${String(table.formatterFn)}`);
  const columns = table.columnsDefs ?? [];
  if (!Array.isArray(columns)) {
    f.errors.push(`${at} data.table.columnsDefs is an array`);
    return;
  }
  const seen = new Set<string>();
  columns.forEach((c, i) => {
    if (!isObject(c)) {
      f.errors.push(`${at} column ${i} is an object`);
      return;
    }
    const field = typeof c.field === "string" ? c.field : `column_${i}`;
    const cat = `${at} column ${field}`;
    if (!("field" in c)) f.errors.push(`${at} column ${i} has no field`);
    if (seen.has(field)) f.warnings.push(`${cat} repeats a field`);
    seen.add(field);
    if (c.cellDataType !== undefined && !CELL_TYPES.has(String(c.cellDataType)))
      f.errors.push(`${cat} unknown cellDataType`);
    if (c.chartDataType !== undefined && !CHART_DATA_TYPES.has(String(c.chartDataType)))
      f.warnings.push(`${cat} unknown chartDataType`);
    if (c.formatterFn !== undefined && !FORMATTERS.has(String(c.formatterFn)))
      f.warnings.push(`${cat} unknown formatterFn`);
    const renderers = typeof c.renderFn === "string" ? [c.renderFn] : Array.isArray(c.renderFn) ? c.renderFn : [];
    for (const r of renderers) if (!RENDERERS.has(String(r))) f.warnings.push(`${cat} unknown renderFn ${String(r)}`);
    if (renderers.includes("cellOnClick") && !isObject(c.renderFnParams))
      f.errors.push(`${cat} cellOnClick needs renderFnParams`);
  });
}

/**
 * validate_apps.py, with overlaps as errors (the issue asks for none): an array of apps, each with
 * a name, allowCustomization, non-empty tabs whose layouts name known widgets inside the 40-column
 * grid, groups named "Group N" over known widgets, and prompts.
 */
export function checkApps(apps: unknown, widgetIds: ReadonlySet<string>): Findings {
  const f: Findings = { errors: [], warnings: [] };
  if (!Array.isArray(apps)) return { errors: ["apps.json must be an array of apps"], warnings: [] };
  apps.forEach((app, n) => {
    const at = `[app ${n}]`;
    if (!isObject(app)) {
      f.errors.push(`${at} an app is an object`);
      return;
    }
    if (!("name" in app)) f.errors.push(`${at} missing name`);
    if (!("description" in app)) f.warnings.push(`${at} missing description`);
    if (typeof app.allowCustomization !== "boolean") f.errors.push(`${at} allowCustomization is a boolean`);
    for (const k of ["img", "img_dark", "img_light"])
      if (k in app && typeof app[k] !== "string") f.errors.push(`${at} ${k} is a string`);
    if (!isObject(app.tabs) || Object.keys(app.tabs).length === 0) f.errors.push(`${at} tabs is a non-empty object`);
    else
      for (const [tabId, tab] of Object.entries(app.tabs)) {
        const tat = `${at} tab ${tabId}`;
        if (!isObject(tab) || !Array.isArray(tab.layout)) {
          f.errors.push(`${tat} has a layout array`);
          continue;
        }
        if (!("id" in tab) || !("name" in tab)) f.warnings.push(`${tat} has no id or name`);
        const placed: { id: string; x: number; y: number; w: number; h: number }[] = [];
        for (const item of tab.layout) {
          if (!isObject(item) || typeof item.i !== "string") {
            f.errors.push(`${tat} a layout item names its widget (i)`);
            continue;
          }
          if (!widgetIds.has(item.i)) f.errors.push(`${tat} unknown widget ${item.i}`);
          const [x, y, w, h] = [item.x ?? 0, item.y ?? 0, item.w ?? 12, item.h ?? 8];
          if (![x, y, w, h].every(isNumber)) {
            f.errors.push(`${tat} ${item.i}: x, y, w, h are numbers`);
            continue;
          }
          const p = { id: item.i, x: x as number, y: y as number, w: w as number, h: h as number };
          if (p.x < 0 || p.y < 0) f.errors.push(`${tat} ${p.id}: negative position`);
          if (p.w <= 0 || p.h <= 0) f.errors.push(`${tat} ${p.id}: empty size`);
          if (p.x + p.w > GRID_COLUMNS) f.errors.push(`${tat} ${p.id}: beyond the 40-column grid`);
          const hit = placed.find(
            (o) => !(p.x + p.w <= o.x || o.x + o.w <= p.x || p.y + p.h <= o.y || o.y + o.h <= p.y),
          );
          if (hit) f.errors.push(`${tat} ${p.id} overlaps ${hit.id}`);
          placed.push(p);
          if (
            item.groups !== undefined &&
            !(Array.isArray(item.groups) && item.groups.every((g) => typeof g === "string"))
          )
            f.errors.push(`${tat} ${p.id}: groups is an array of names`);
          if (item.state !== undefined && !isObject(item.state)) f.errors.push(`${tat} ${p.id}: state is an object`);
        }
      }
    if (!Array.isArray(app.groups)) f.errors.push(`${at} groups is an array`);
    else
      for (const g of app.groups) {
        if (!isObject(g) || typeof g.name !== "string") {
          f.errors.push(`${at} a group has a name`);
          continue;
        }
        if (!/^Group \d+$/.test(g.name)) f.warnings.push(`${at} group ${g.name} is not named "Group N"`);
        if (g.type !== undefined && g.type !== "param" && g.type !== "endpointParam")
          f.warnings.push(`${at} group type ${String(g.type)}`);
        if (!("paramName" in g)) f.warnings.push(`${at} group ${g.name} has no paramName`);
        if (!Array.isArray(g.widgetIds) || g.widgetIds.length === 0)
          f.errors.push(`${at} group ${g.name} lists widgets`);
        else
          for (const id of g.widgetIds)
            if (!widgetIds.has(String(id))) f.errors.push(`${at} group ${g.name}: unknown widget ${String(id)}`);
      }
    if (!Array.isArray(app.prompts)) f.warnings.push(`${at} prompts is an array`);
  });
  return f;
}

/** validate_endpoints.py: what a widget's answer must look like for its type. */
export function answerFits(type: string, body: unknown): boolean {
  switch (type) {
    case "table":
      return Array.isArray(body);
    case "chart":
      return isObject(body) && ("data" in body || "layout" in body);
    case "metric":
      return Array.isArray(body) && body.every((t) => isObject(t) && "label" in t && "value" in t);
    default:
      return false;
  }
}

/** The query a checker sends a widget: each param's default value. */
export function defaultQuery(widget: Json): string {
  const q = new URLSearchParams();
  for (const p of paramsOf(widget.params)) q.set(String(p.paramName), String(p.value ?? ""));
  return q.toString();
}
