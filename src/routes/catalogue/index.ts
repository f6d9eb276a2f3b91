import { createApi } from "../openapi";
import { registerGetAssetByIsin } from "./get-asset-by-isin";
import { registerListListings } from "./list-listings";

export const catalogueApi = createApi();
registerGetAssetByIsin(catalogueApi);
registerListListings(catalogueApi);
