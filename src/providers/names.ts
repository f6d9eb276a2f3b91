/**
 * The source identifier of each provider: what `data_source`, `source`, provider errors and the
 * health report say. The one place they are spelled.
 */
export const DELAYED = "delayed_provider";
export const STREAM = "stream_provider";

export type ProviderName = typeof DELAYED | typeof STREAM;
