import { createApi } from "../openapi";
import { registerGetEarningsCalendar } from "./get-earnings-calendar";

export const calendarApi = createApi();
registerGetEarningsCalendar(calendarApi);
