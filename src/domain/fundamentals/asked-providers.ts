import { BadRequestError } from "../errors";
import { FUNDAMENTAL_PROVIDERS, isFundamentalProvider } from "../provider-names";

/** The providers asked: all, or those named (comma-separated), each a known name. */
export function askedProviders(provider: string | undefined): string[] {
  if (!provider) return [...FUNDAMENTAL_PROVIDERS];
  const names = [
    ...new Set(
      provider
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !isFundamentalProvider(n));
  if (names.length === 0 || unknown.length)
    throw new BadRequestError(
      `unknown provider ${unknown.join(", ") || "(none)"}; use one or several of ${FUNDAMENTAL_PROVIDERS.join(", ")}`,
    );
  return FUNDAMENTAL_PROVIDERS.filter((p) => names.includes(p));
}
