import type { Bindings } from "../env";

type Registry = NonNullable<Bindings["STREAM_REGISTRY"]>;

/**
 * The one StreamRegistry instance. Kept apart from the class so code that runs outside the Workers
 * runtime (the app in plain-Node unit tests) can import it.
 */
export function registryOf(ns: Registry): ReturnType<Registry["get"]> {
  return ns.get(ns.idFromName("registry"));
}
