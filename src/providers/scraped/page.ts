import type { Deadline } from "../../clock";
import { ProviderError } from "../errors";
import { BROWSER_USER_AGENT, getText } from "../http";

/** Web pages are asked for as a browser asks for them. */
export const PAGE_HEADERS = { "user-agent": BROWSER_USER_AGENT, accept: "text/html,application/xhtml+xml" };

/**
 * The HTML of a page: a 404 is the site saying it has no page for `what` (an answer), any other
 * status but 200 a failure (as are a 429, a 5xx and a timeout, from getText).
 */
export async function fetchPage(
  provider: string,
  url: string,
  what: string,
  opts: { timeoutMs: number; deadline?: Deadline },
): Promise<string> {
  const { status, text } = await getText(provider, url, { ...opts, headers: PAGE_HEADERS });
  if (status === 404) throw new ProviderError(provider, "not_found", `no page for ${what}`);
  if (status !== 200) throw new ProviderError(provider, "bad_response", `HTTP ${status}`);
  return text;
}
