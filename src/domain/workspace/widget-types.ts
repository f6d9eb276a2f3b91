/** The shapes of the analytics workspace's discovery files (widgets.json and apps.json). */

export interface Option {
  label: string;
  value: string;
}

export interface WidgetParam {
  paramName: string;
  type: "text" | "number" | "boolean" | "date";
  value: string | number | boolean | null;
  label: string;
  description: string;
  options?: Option[];
  multiSelect?: boolean;
}

export interface ColumnDef {
  field: string;
  headerName: string;
  cellDataType?: "text" | "number" | "boolean" | "date" | "dateString" | "object";
  formatterFn?: "int" | "none" | "percent" | "normalized" | "normalizedPercent" | "dateToYear";
  renderFn?: "greenRed" | "titleCase" | "hoverCard" | "cellOnClick" | "columnColor" | "showCellChange";
  pinned?: "left" | "right";
  width?: number;
}

export interface Widget {
  name: string;
  description: string;
  category: string;
  subCategory?: string;
  type: "metric" | "chart" | "table";
  endpoint: string;
  gridData: { w: number; h: number };
  source: string[];
  params: WidgetParam[];
  raw?: boolean;
  refetchInterval?: number;
  staleTime?: number;
  data?: { table: { showAll?: boolean; columnsDefs: ColumnDef[] } };
}

/** One placement of a widget on a dashboard tab (grid units: 40 columns). */
export interface Placement {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  state?: { params: Record<string, string> };
  groups?: string[];
}

export interface App {
  name: string;
  description: string;
  img: string;
  img_dark: string;
  img_light: string;
  allowCustomization: boolean;
  tabs: Record<string, { id: string; name: string; layout: Placement[] }>;
  groups: { name: string; type: "param"; paramName: string; defaultValue: string; widgetIds: string[] }[];
  prompts: string[];
}
