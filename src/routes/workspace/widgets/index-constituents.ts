import { getIndexConstituents } from "../../../services/indices/get-constituents";
import { textParam } from "../../openapi";
import type { WidgetRoutes } from "../define";

export function registerIndexConstituentsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/index/{index_name}/constituents",
    queryPath: "/workspace/index/constituents",
    kind: "table",
    description:
      "Feeds the svc_index_constituents table widget: the stored members of an index from /index/{index_name}/constituents, heaviest first. Any key.",
    summary: "svc_index_constituents: the stored members of an index, heaviest first",
    params: { index_name: textParam(40).openapi({ example: "cac40" }) },
    query: {},
    errors: [404],
    handle: async (c, q) => {
      const r = await getIndexConstituents({ ctx: c.get("deps"), input: { name: q.index_name } });
      return r.members.map((m) => ({ index: r.index.code, ...m }));
    },
  });
}
