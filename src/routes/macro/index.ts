import { createApi } from "../openapi";
import { registerGetMacroRates } from "./get-rates";

export const macroApi = createApi();
registerGetMacroRates(macroApi);
