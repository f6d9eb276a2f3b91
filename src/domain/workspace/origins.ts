/**
 * Where the analytics workspace calls from, as OpenBB documents it: its web app (production and
 * preview), its desktop app (a local web view) and its Excel add-in. The default of
 * WORKSPACE_ALLOWED_ORIGIN; setting it replaces the whole list (to narrow it, name only yours).
 */
export const WORKSPACE_ORIGINS: readonly string[] = [
  "https://pro.openbb.co",
  "https://pro.openbb.dev",
  "http://localhost:1420",
  "https://excel.openbb.co",
];
