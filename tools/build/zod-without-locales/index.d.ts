// Types: zod's own (the `locales` namespace, absent at run time, is never read by this service).
export * from "zod";
export { default, z } from "zod";
