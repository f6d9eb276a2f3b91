import { createApi } from "../openapi";
import { registerDcfRoutes } from "./routes";

export const dcfApi = createApi();
registerDcfRoutes(dcfApi);
