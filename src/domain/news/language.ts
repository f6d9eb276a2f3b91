/** GDELT names languages in English; the service answers ISO 639-1 codes. */
const NAMES: Record<string, string> = {
  english: "en",
  french: "fr",
  german: "de",
  spanish: "es",
  italian: "it",
  dutch: "nl",
  portuguese: "pt",
  swedish: "sv",
  danish: "da",
  norwegian: "no",
  finnish: "fi",
  polish: "pl",
  czech: "cs",
  greek: "el",
  turkish: "tr",
  russian: "ru",
  ukrainian: "uk",
  arabic: "ar",
  hebrew: "he",
  chinese: "zh",
  japanese: "ja",
  korean: "ko",
  hindi: "hi",
  romanian: "ro",
  hungarian: "hu",
  catalan: "ca",
};

/** A provider's language, as a code: "English" -> "en", "en-US" -> "en", "fr" -> "fr"; null when unknown. */
export function languageCode(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  if (NAMES[v]) return NAMES[v];
  const m = /^([a-z]{2})(?:[-_][a-z]{2})?$/.exec(v);
  return m?.[1] ?? null;
}

export { detectLanguage } from "./detect-language";

/**
 * The ISO 639-1 codes: what a `language` parameter may name. A code outside it would match no
 * article, and each such code would be a cache variant of its own for nothing.
 */
export const ISO_639_1: ReadonlySet<string> = new Set(
  (
    "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee " +
    "el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io " +
    "is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn " +
    "mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se " +
    "sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo " +
    "wa wo xh yi yo za zh zu"
  ).split(" "),
);
