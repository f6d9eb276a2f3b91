import { createApi } from "../openapi";
import { registerAddAssets } from "./add-assets";
import { registerGetAssetByIsin } from "./get-asset-by-isin";
import { registerGetImport } from "./get-import";
import { registerImportAssets } from "./import-assets";
import { registerListListings } from "./list-listings";
import { registerListRefreshRuns } from "./list-refresh-runs";
import { registerRemoveAsset } from "./remove-asset";
import { registerStartRefresh } from "./start-refresh";

export const catalogueApi = createApi();
registerImportAssets(catalogueApi);
registerGetImport(catalogueApi);
registerAddAssets(catalogueApi);
registerGetAssetByIsin(catalogueApi);
registerRemoveAsset(catalogueApi);
registerListListings(catalogueApi);
registerListRefreshRuns(catalogueApi);
registerStartRefresh(catalogueApi);
