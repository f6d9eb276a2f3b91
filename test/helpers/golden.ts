/**
 * A rendered fundamentals document without what differs between runs: the simulators' addresses
 * (their ports) and the day it was rendered (General.UpdatedAt).
 */
export function comparableDocument(doc: Record<string, unknown>): unknown {
  const text = JSON.stringify(doc).replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://<simulator>");
  const out = JSON.parse(text) as Record<string, Record<string, unknown>>;
  if (out.General) out.General.UpdatedAt = "<day>";
  return out;
}
