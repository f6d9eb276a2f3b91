import { createApi } from "../openapi";
import { registerCalendar } from "./routes";

export const calendarApi = createApi();
registerCalendar(calendarApi);
