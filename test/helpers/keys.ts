/** API keys the worker under test is configured with. */
export const FULL_KEY = "test-full-key-0123456789abcdef0123456789";
export const READ_ONLY_KEY = "test-read-only-key-0123456789abcdef0123456789";
