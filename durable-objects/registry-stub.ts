import type { StreamRegistry } from "./stream-registry";

/**
 * The one StreamRegistry instance. Kept apart from the class so code that runs outside the Workers
 * runtime (the app in plain-Node unit tests) can import it.
 */
export function registryOf(ns: DurableObjectNamespace<StreamRegistry>): DurableObjectStub<StreamRegistry> {
  return ns.get(ns.idFromName("registry"));
}
