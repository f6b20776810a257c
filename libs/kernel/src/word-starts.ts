/** Longest indexed tail of a name (characters): longer searches are checked against the name itself. */
export const WORD_TAIL_LENGTH = 191;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;

/**
 * The tails of a text that begin where a word begins, lowercased, for a word-prefix search
 * index: "Coca-Cola 330ml" gives "coca-cola 330ml", "cola 330ml" and "330ml". A
 * word begins at the start, after white space, and where a letter or digit follows a character
 * that is neither. A search for q then finds every name that has q at the beginning of one of
 * its words (across several words too: "cola 33"), with one range read of an index on the
 * tails. Each tail is at most WORD_TAIL_LENGTH characters; duplicates are kept once.
 */
export function wordTails(text: string): string[] {
  const chars = Array.from(text.toLowerCase());
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

/** A search term as the tails are written: lowercased, leading white space dropped. */
export function wordSearchTerm(q: string): string {
  return q.toLowerCase().replace(/^\s+/u, '');
}
