import { createApi } from "../openapi";
import { registerSearch } from "./search";

export const searchApi = createApi();
registerSearch(searchApi);
