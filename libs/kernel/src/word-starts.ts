/** Longest indexed tail of a name (characters): longer searches are checked against the name itself. */
export const WORD_TAIL_LENGTH = 191;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const DIACRITICS = /[\u0300-\u036f]/g;

/**
 * Text as the name search compares it: lowercased, with the accents of Latin, Greek and Cyrillic
 * letters taken off ("Crème" and "CREME" both give "creme"; Turkish "İ" gives "i"), the way
 * MySQL's utf8mb4_unicode_ci compares them, so SQLite finds what MySQL finds. Decomposed
 * input ("e" + U+0301) folds as composed input does; other scripts come back composed (NFC).
 */
export function foldForSearch(text: string): string {
  return text.toLowerCase().normalize('NFD').replace(DIACRITICS, '').normalize('NFC');
}
const SPACE = /\s/u;

/**
 * The tails of a text that begin where a word begins, folded (`foldForSearch`), for a word-prefix search
 * index: "Coca-Cola 330ml" gives "coca-cola 330ml", "cola 330ml" and "330ml". A
 * word begins at the start, after white space, and where a letter or digit follows a character
 * that is neither. A search for q then finds every name that has q at the beginning of one of
 * its words (across several words too: "cola 33"), with one range read of an index on the
 * tails. Each tail is at most WORD_TAIL_LENGTH characters; duplicates are kept once.
 */
export function wordTails(text: string): string[] {
  const chars = Array.from(foldForSearch(text));
  const tails = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (SPACE.test(c)) continue;
    const prev = i === 0 ? null : chars[i - 1];
    if (prev === null || SPACE.test(prev) || (WORD_CHAR.test(c) && !WORD_CHAR.test(prev))) {
      tails.add(chars.slice(i, i + WORD_TAIL_LENGTH).join(''));
    }
  }
  return [...tails];
}

/** A search term as the tails are written: folded (`foldForSearch`), leading white space dropped. */
export function wordSearchTerm(q: string): string {
  return foldForSearch(q).replace(/^\s+/u, '');
}

/** Longest word-start prefix the prefix index holds (characters): longer terms read the tails' range. */
export const WORD_PREFIX_LENGTH = 16;

/**
 * The distinct prefixes of these tails, up to WORD_PREFIX_LENGTH characters, that do not end in
 * a space: "cola 33" gives "c", "co", "col", "cola", "cola 3" and "cola 33". The prefix index
 * holds one row per prefix, sorted by name under each, so a search for a short term reads its
 * first page in name order without sorting every match. (MySQL's PAD SPACE collations compare
 * "cola " equal to "cola": a prefix ending in a space would only repeat the one before it.)
 */
export function wordPrefixes(tails: readonly string[]): string[] {
  const out = new Set<string>();
  for (const tail of tails) {
    let prefix = '';
    for (const c of Array.from(tail).slice(0, WORD_PREFIX_LENGTH)) {
      prefix += c;
      if (c !== ' ') out.add(prefix);
    }
  }
  return [...out];
}

/**
 * The prefix index's key for a search term (its wordSearchTerm), or null when the term is for the
 * tails' range instead: empty, longer than WORD_PREFIX_LENGTH characters, or ending in a space.
 */
export function wordPrefixTerm(q: string): string | null {
  const term = wordSearchTerm(q);
  const chars = Array.from(term);
  if (!chars.length || chars.length > WORD_PREFIX_LENGTH || chars[chars.length - 1] === ' ') return null;
  return term;
}
