import { createApi } from "../openapi";
import { registerGetFxLatest } from "./get-latest";
import { registerGetFxSeries } from "./get-series";

export const fxApi = createApi();
// /fx/latest before /fx/{base}/{quote}: "latest" is no currency, and the two paths differ in length anyway.
registerGetFxLatest(fxApi);
registerGetFxSeries(fxApi);
