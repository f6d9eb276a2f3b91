import { createApi } from "../openapi";
import { registerGetAssetByIsin } from "./get-asset-by-isin";
import { registerListListings } from "./list-listings";
import { registerListRefreshRuns } from "./list-refresh-runs";
import { registerStartRefresh } from "./start-refresh";

export const catalogueApi = createApi();
registerGetAssetByIsin(catalogueApi);
registerListListings(catalogueApi);
registerListRefreshRuns(catalogueApi);
registerStartRefresh(catalogueApi);
