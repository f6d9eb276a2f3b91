import { createApi } from "../openapi";
import { registerCompareDcf } from "./compare";
import { registerGetDcf } from "./get";
import { registerPostDcf } from "./post";
import { registerGetDcfSensitivity } from "./sensitivity";

export const dcfApi = createApi();
registerGetDcf(dcfApi);
registerCompareDcf(dcfApi);
registerGetDcfSensitivity(dcfApi);
registerPostDcf(dcfApi);
