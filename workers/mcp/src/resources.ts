import type { ApiCall } from "../../../src/domain/mcp-contract";

/**
 * The resources: what an agent reads as context rather than asks as a question. Two fixed lists (the
 * indicators with their parameters, the exchanges with their hours) and two templates (an
 * instrument by ISIN, a venue's holidays); each is one API route, read on the caller's key.
 */
export const RESOURCES = [
  {
    uri: "market://indicators",
    name: "indicators",
    title: "Technical indicators",
    description: "The 18 indicators with their parameters, outputs and the bars each needs (GET /technical/list)",
    mimeType: "application/json",
  },
  {
    uri: "market://exchanges",
    name: "exchanges",
    title: "Exchanges",
    description: "Every venue of the catalogue: time zone, trading hours, open now, next open and close (GET /exchanges)",
    mimeType: "application/json",
  },
] as const;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "market://instruments/{isin}",
    name: "instrument",
    title: "Instrument by ISIN",
    description: "An instrument with its preferred listing and all its listings (GET /assets/by-isin/{isin})",
    mimeType: "application/json",
  },
  {
    uriTemplate: "market://exchanges/{code}",
    name: "exchange",
    title: "Exchange calendar",
    description: "One venue with this year's and next year's holidays and early closes (GET /exchanges/{code})",
    mimeType: "application/json",
  },
] as const;

/** The API request that reads a resource, or null for a URI that names none. */
export function resourceCall(uri: string): ApiCall | null {
  const get = (path: string): ApiCall => ({ method: "GET", path, query: [] });
  if (uri === "market://indicators") return get("/technical/list");
  if (uri === "market://exchanges") return get("/exchanges");
  const instrument = /^market:\/\/instruments\/([A-Za-z0-9]{1,32})$/.exec(uri);
  if (instrument?.[1]) return get(`/assets/by-isin/${instrument[1]}`);
  const exchange = /^market:\/\/exchanges\/([A-Za-z0-9._-]{1,32})$/.exec(uri);
  if (exchange?.[1]) return get(`/exchanges/${exchange[1]}`);
  return null;
}
