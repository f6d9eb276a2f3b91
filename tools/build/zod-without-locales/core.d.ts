// Types: zod's own core (the `locales` namespace, absent at run time, is never read by this service).
export * from "zod/v4/core";
