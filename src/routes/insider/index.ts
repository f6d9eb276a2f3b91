import { createApi } from "../openapi";
import { registerGetInsider } from "./get";

export const insiderApi = createApi();
registerGetInsider(insiderApi);
