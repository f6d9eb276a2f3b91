import { ALPHABET, APOS_SUFFIX, LETTERS, MARKS, PREFIX_ELISIONS, SUFFIXES, VETO } from "../../data/headline-marks";
import { WORDS } from "../../data/headline-words";

/**
 * A compact language detector for news headlines ("headline" or "headline. summary"), for the 26 languages the
 * news API names. No dependencies and no model file: about 14 KiB min+gzip of hand-written tables and rules.
 * Returns an ISO 639-1 code, or null when unsure: a wrong code hides an article from a language filter, while
 * null keeps it under every filter, so every rule below prefers null to a guess.
 *
 * 1. Script first. Most non-Latin languages here own their script (Hangul, kana, Greek, Hebrew), so counting
 *    letters per Unicode script settles them without statistics, even on short texts (4+ characters).
 *    Shared scripts get small rules: Han without kana is Chinese; Arabic script is Arabic unless Persian/Urdu
 *    letters show; Devanagari is Hindi only with a Hindi postposition and no Marathi/Nepali word; Cyrillic is
 *    Ukrainian with і/ї/є/ґ, Russian with ы/э/ё, or (long enough, no і) with a Russian ending such as -ого/-ться;
 *    Serbian, Macedonian, Belarusian, Kazakh letters or a Bulgarian-looking text give null.
 * 2. Latin script (12+ characters): points from
 *    (a) a table of frequent words per language - function words plus the vocabulary of financial headlines
 *        (verbs like "rises"/"steigt"/"sube", nouns like "shares"/"Aktie"), since real headlines are telegraphic
 *        and full of proper nouns; a word listed for k languages gives each 1/k;
 *    (b) elisions (l', dell', qu') and Turkish suffixes after an apostrophe (TÜİK'e, 50'de);
 *    (c) letters with diacritics (ß, ø, ł, ő, ș, ğ, ã, ñ...), split the same way; word endings (-ção, -zione,
 *        -ung) and letter sequences (Dutch ij, English th, German tz) for words not in the table;
 *    (d) penalties: a lowercase word with a letter a language does not write (a French "à" rules out English);
 *        two accents in one word rule out Spanish, Portuguese, Catalan and Italian;
 *    (e) vetoes for close relatives outside the 26 (Slovak/Slovenian/Croatian vs Czech, Afrikaans vs Dutch,
 *        Galician vs Portuguese/Spanish; Indonesian, Tagalog, Basque, Swahili give null).
 *    Capitalised words inside a sentence are mostly names ("Société Générale" in an English headline), so they
 *    count for less, except as German nouns. Tickers and acronyms (ASML, BCE) are skipped.
 * 3. A margin rule: the best language needs MIN_EVIDENCE points and a lead of MIN_LEAD over the runner-up,
 *    else null. Lowering both (1.0 / 0.5) answers more often, at the price of an occasional wrong code.
 */

/** Characters of Chinese text that Japanese does not use (simplified forms; traditional ones Japanese simplified differently). */
const CHINESE_ONLY = /[这這们們经说說对對时发發为让讓进业门长东车买卖賣价價涨漲跌吗嗎呢银证證股场汇匯个亿]/;

const LATIN_LANGS = Object.keys(WORDS);
// Thresholds of the margin rule, chosen on the development corpus (see the evaluation): about two listed
// words, or one word and a telling letter; and a clear lead over the runner-up.
const MIN_EVIDENCE = 1.5;
const MIN_LEAD = 0.75;

let wordIndex: Map<string, string[]> | undefined;
function index(): Map<string, string[]> {
  if (wordIndex) return wordIndex;
  wordIndex = new Map();
  for (const lang of LATIN_LANGS) {
    for (const w of (WORDS[lang] ?? "").split(" ")) {
      if (!w) continue;
      const l = wordIndex.get(w);
      if (!l) wordIndex.set(w, [lang]);
      else if (!l.includes(lang)) l.push(lang);
    }
  }
  return wordIndex;
}

const add = (s: Record<string, number>, langs: string | string[], w: number) => {
  const l = typeof langs === "string" ? langs.split(" ") : langs;
  for (const x of l) s[x] = (s[x] ?? 0) + w / l.length;
};

function count(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

/** The script rule (step 1): a code, null (a script we do not answer for), or undefined (Latin: go on). */
function byScript(t: string): string | null | undefined {
  const latin = count(t, /\p{Script=Latin}/gu);
  const kana = count(t, /[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
  const han = count(t, /\p{Script=Han}/gu);
  const hangul = count(t, /\p{Script=Hangul}/gu);
  const greek = count(t, /\p{Script=Greek}/gu);
  const cyr = count(t, /\p{Script=Cyrillic}/gu);
  const hebrew = count(t, /\p{Script=Hebrew}/gu);
  const arabic = count(t, /\p{Script=Arabic}/gu);
  const deva = count(t, /\p{Script=Devanagari}/gu);
  const letters = count(t, /\p{L}/gu);
  const other = letters - latin - kana - han - hangul - greek - cyr - hebrew - arabic - deva;
  // A script must hold most letters: Latin names and tickers inside a Korean or Greek headline do not count against it.
  const best = Math.max(latin, kana + han, hangul, greek, cyr, hebrew, arabic, deva, other);
  if (best === 0) return null;
  if (best === latin) return undefined;
  if (best === other) return null;
  if (best === hangul) return hangul >= 2 ? "ko" : null;
  if (best === kana + han) {
    if (kana > 0) return kana + han >= 3 ? "ja" : null;
    // Han alone is Chinese only with a character Japanese does not write (simplified forms, and
    // traditional ones Japanese replaced): a kanji-only Japanese headline ("日経平均、大幅続伸") is not.
    return han >= 4 && CHINESE_ONLY.test(t) ? "zh" : null;
  }
  if (best === greek) return greek >= 4 ? "el" : null;
  if (best === hebrew) return hebrew >= 4 && !/[\u05F0-\u05F2]/.test(t) ? "he" : null; // Yiddish digraphs -> null
  if (best === arabic) return arabic >= 4 && count(t, /[پچژگکیٹڈڑںےۀہ]/g) < 2 ? "ar" : null; // Persian/Urdu letters -> null
  if (best === deva) {
    // Hindi, unless Marathi (ळ, आहे, आणि, किंवा, च्या, नाही) or Nepali (छ, हरू, लाई) shows; and a Hindi postposition or verb
    // (में, है, और, ने, से, पर, की, का, के...) must appear, since Marathi and Nepali share the script.
    if (deva < 4 || /ळ|आहे|आणि|आणखी|किंवा|असे|च्या|नाही|हरू|लाई|(^|\s)छ(\s|$|।)/.test(t)) return null;
    return /(^|\s)(में|है|हैं|और|ने|से|पर|की|का|के|को|लिए|नहीं|भी|तक|गया|गई|किया|रहा|रही|हुआ|हुई)(?=\s|$|[।,?!])/.test(t)
      ? "hi"
      : null;
  }
  // Cyrillic.
  const lower = t.toLowerCase();
  if (/[ђћџљњјѓќѕўәғқңөұүһ]/.test(lower)) return null; // Serbian, Macedonian, Belarusian, Kazakh...
  const uk = count(lower, /[іїєґ]/g);
  const ru = count(lower, /[ыэё]/g);
  const hard = count(lower, /ъ/g);
  if (uk > 0 && ru === 0 && hard === 0) return "uk";
  if (ru > 0 && uk === 0) return "ru";
  if (uk === 0 && hard > 0) return null; // ъ without ы/э: Bulgarian is likelier than Russian
  // Without і or ы/э/ё: Russian if long enough (Ukrainian text this long almost always shows an і) and a
  // Russian ending or word shows (-ого, -ться, -ый, что, это...), which Bulgarian and Serbian do not have.
  if (
    uk === 0 &&
    cyr >= 25 &&
    /(ого|его|ому|ему|ться|тся|ись|ась|ый|ий|ая|ое|ые)(?!\p{L})|(^|[^\p{L}])(что|это|как|для|после|из)(?!\p{L})/u.test(
      lower,
    )
  )
    return "ru";
  return null;
}

/**
 * The language of a news text (a headline, or "headline. summary") as an ISO 639-1 code, or null
 * when unsure (a wrong code would hide the article from a language filter; null keeps it).
 * @example detectLanguage("Siemens hebt die Jahresprognose an") // "de"
 */
export function detectLanguage(text: string): string | null {
  const t = text
    .normalize("NFC")
    .replace(/[’‘`´]/g, "'")
    .trim();
  if (t.length < 4) return null;
  const s = byScript(t);
  if (s !== undefined) return s;
  if (t.length < 12) return null; // too little Latin text to tell languages apart

  const idx = index();
  const score: Record<string, number> = {};
  const penalty: Record<string, number> = {};
  const vetoed = new Set<string>();
  const upper = t === t.toUpperCase(); // an all-caps headline: read every word as lowercase
  // Words, with the apostrophe kept so elisions can be recognised. "·" is part of Catalan words (col·lecció).
  // A word right after the start or after . ! ? : is a sentence start: capitalised, but not a name.
  const re = /[\p{L}\d]+(?:['·][\p{L}\d]+)*/gu;
  let last = 0;
  let previousCapital = false;
  for (const m of t.matchAll(re)) {
    const raw = m[0];
    const first = last === 0 || /[.!?:;«"“]\s*$/.test(t.slice(last, m.index));
    last = m.index + raw.length;
    if (/^\d/.test(raw)) {
      const n = /^[\d.,]+'(\p{L}+)$/u.exec(raw); // "50'de": Turkish suffix on a number
      if (n?.[1] && APOS_SUFFIX[n[1]] === "tr") add(score, "tr", 1);
      continue;
    }
    if (raw.length > 1 && raw === raw.toUpperCase() && !upper) continue; // tickers, acronyms: ASML, BCE, EZB
    const w = raw.toLowerCase();
    const capital = !upper && !first && raw[0] !== w[0];
    const nextCapital = !upper && /^\s+\p{Lu}/u.test(t.slice(last));
    // Beside another capitalised word a capitalised word is part of a name ("Deutsche Börse"), even in German.
    const inName = capital && (previousCapital || nextCapital);
    previousCapital = capital || (first && raw[0] !== w[0]);
    if (!capital && VETO[w]) {
      if (VETO[w] === "*") return null;
      for (const l of VETO[w].split(" ")) vetoed.add(l);
    }
    let core = w;
    const ap = w.indexOf("'");
    if (ap > 0) {
      const pre = w.slice(0, ap);
      const post = w.slice(ap + 1);
      if (PREFIX_ELISIONS[pre]) {
        add(score, PREFIX_ELISIONS[pre], 1.5);
        core = post;
      } else if (APOS_SUFFIX[post]) {
        add(score, APOS_SUFFIX[post], 1);
        core = pre;
      }
    }
    const lw = capital ? 0.3 : 1; // names (capitalised inside a sentence) count for less
    const langs = idx.get(core);
    // A capitalised word inside a sentence is likely a name, except in German, which capitalises every noun.
    if (langs)
      for (const l of langs) score[l] = (score[l] ?? 0) + (capital && (l !== "de" || inName) ? 0.5 : 1) / langs.length;
    else if (core.length >= 5) {
      for (const [suf, l] of SUFFIXES)
        if (core.endsWith(suf)) {
          add(score, l, 0.5 * lw);
          break;
        }
      for (const [re2, l] of MARKS) if (re2.test(core)) add(score, l, 0.5 * lw);
    }
    for (const ch of new Set(core)) {
      const l = LETTERS[ch];
      if (l) add(score, l, lw);
    }
    // Spanish, Portuguese, Catalan and Italian put at most one accent on a word ("beruházás" is not Spanish).
    if (!capital && count(core, /[áéíóúàèìòùâêîôûãõ]/g) >= 2)
      for (const l of ["es", "pt", "ca", "it"]) penalty[l] = (penalty[l] ?? 0) + 1;
    // A lowercase word with a letter foreign to a language is evidence against that language.
    if (!capital && /[^a-z]/.test(core)) {
      for (const lang of LATIN_LANGS) {
        for (const ch of core) {
          if (ch > "z" && ch !== "'" && !(ALPHABET[lang] ?? "").includes(ch)) {
            penalty[lang] = (penalty[lang] ?? 0) + 1;
            break;
          }
        }
      }
    }
  }
  let best = "",
    b1 = -Infinity,
    b2 = -Infinity;
  // Czech is told from Slovak, Slovenian and Croatian by ř/ě/ů, which nearly every Czech sentence has.
  if (!/[řěů]/i.test(t)) vetoed.add("cs");
  // Slovak letters rule out Czech; the Afrikaans article 'n rules out Dutch; Portuguese never writes ä/ö/ü.
  if (/[ľĺŕ]/i.test(t)) vetoed.add("cs");
  if (/(^|\s)'n\s/.test(t)) vetoed.add("nl");
  if (/[äöü]/i.test(t)) vetoed.add("pt");
  for (const lang of LATIN_LANGS) {
    if (vetoed.has(lang)) continue;
    const v = (score[lang] ?? 0) - 1.5 * (penalty[lang] ?? 0);
    if (v > b1) {
      b2 = b1;
      b1 = v;
      best = lang;
    } else if (v > b2) b2 = v;
  }
  // Margin rule (thresholds chosen on the development corpus): enough evidence, and a clear lead.
  if (b1 < MIN_EVIDENCE || b1 - Math.max(b2, 0) < MIN_LEAD) return null;
  return best;
}
