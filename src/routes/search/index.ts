import { createApi } from "../openapi";
import { registerSearch } from "./routes";

export const searchApi = createApi();
registerSearch(searchApi);
