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
