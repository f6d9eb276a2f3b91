import { createApi } from "../openapi";
import { registerCreateKey } from "./create";
import { registerListKeys } from "./list";
import { registerRevokeKey } from "./revoke";
import { registerUpdateKey } from "./update";
import { registerGetUsage } from "./usage";

export const keysApi = createApi();
registerCreateKey(keysApi);
registerListKeys(keysApi);
registerUpdateKey(keysApi);
registerRevokeKey(keysApi);
registerGetUsage(keysApi);
