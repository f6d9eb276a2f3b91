/**
 * Waits for a provider's turn before a request. Requests of ordinary work are not paced; the
 * catalogue refresh paces its requests through one ProviderPacer per provider, so that its
 * consumers together stay under each provider's limits.
 */
export type Pace = (provider: string) => Promise<void>;

/** The pace of work that is not paced: no wait. */
export const unpaced: Pace = async () => undefined;
