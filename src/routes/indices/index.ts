import { createApi } from "../openapi";
import { registerGetIndexConstituents } from "./get-constituents";

export const indicesApi = createApi();
registerGetIndexConstituents(indicesApi);
