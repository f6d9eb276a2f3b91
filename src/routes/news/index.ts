import { createApi } from "../openapi";
import { registerNewsRoutes } from "./routes";

export const newsApi = createApi();
registerNewsRoutes(newsApi);
