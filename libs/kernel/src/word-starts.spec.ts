import { foldForSearch, WORD_PREFIX_LENGTH, WORD_TAIL_LENGTH, wordPrefixes, wordPrefixTerm, wordSearchTerm, wordTails } from './word-starts';

describe('wordTails', () => {
  it('starts a tail at every word: after spaces, and where a letter or digit follows punctuation', () => {
    expect(wordTails('Coca-Cola 330ml')).toEqual(['coca-cola 330ml', 'cola 330ml', '330ml']);
    expect(wordTails('  Crème  brûlée (XL)')).toEqual(['creme  brulee (xl)', 'brulee (xl)', '(xl)', 'xl)']);
  });

  it('folds accents as MySQL compares them, decomposed input as composed, and finds either from the other', () => {
    expect(foldForSearch('Crème BRÛLÉE')).toBe('creme brulee');
    expect(foldForSearch('Cre\u0300me')).toBe('creme'); // "e" + combining grave
    expect(foldForSearch('İstanbul Ölmühle Ñandú Ærø Ελληνικά')).toBe('istanbul olmuhle nandu ærø ελληνικα'); // ø, æ, ß, ł are letters of their own, not accented ones
    expect(foldForSearch('한국어 日本語')).toBe('한국어 日本語'); // other scripts as they were (NFC)
    // a mark after a space no longer starts a word of its own
    expect(wordTails('x \u0301y')).toEqual(['x y', 'y']);
    const matches = (name: string, q: string) => wordTails(name).some((t) => t.startsWith(wordSearchTerm(q)));
    expect(matches('Crème brûlée', 'creme bru')).toBe(true);
    expect(matches('Creme brulee', 'CRÈME BRÛ')).toBe(true);
  });

  it('finds what a LIKE %q% finds when q starts a word, and not what is inside a word', () => {
    const matches = (name: string, q: string) => wordTails(name).some((t) => t.startsWith(wordSearchTerm(q)));
    expect(matches('Dark Chocolate Bar', 'choc')).toBe(true);
    expect(matches('Dark Chocolate Bar', 'Chocolate B')).toBe(true);
    expect(matches('Dark Chocolate Bar', 'DARK')).toBe(true);
    expect(matches('Dark Chocolate Bar', 'cola')).toBe(false);
    expect(matches('Water 1.5L', '5l')).toBe(true);
  });

  it('keeps each tail once and cuts long ones', () => {
    expect(wordTails('a a')).toEqual(['a a', 'a']);
    const long = 'x'.repeat(300);
    expect(wordTails(long)).toEqual(['x'.repeat(WORD_TAIL_LENGTH)]);
    expect(wordTails('')).toEqual([]);
  });
});

describe('wordPrefixes', () => {
  it('gives every prefix of every tail up to the cut, none ending in a space, each once', () => {
    expect(wordPrefixes(['cola 33', '33'])).toEqual(['c', 'co', 'col', 'cola', 'cola 3', 'cola 33', '3', '33']);
    expect(wordPrefixes(['a a', 'a'])).toEqual(['a', 'a a']);
    expect(wordPrefixes(['a\tb'])).toEqual(['a', 'a\t', 'a\tb']);
    expect(wordPrefixes(['x'.repeat(40)])).toHaveLength(WORD_PREFIX_LENGTH);
    expect(wordPrefixes([])).toEqual([]);
  });

  it('holds exactly the terms of up to the cut that some tail starts with', () => {
    const tails = wordTails('Crème Brûlée Dessert-Cup (XL)');
    const held = new Set(wordPrefixes(tails));
    for (const q of ['crème', 'CRÈME BR', 'brûlée des', 'dessert-cup', 'cup (x', 'xl', 'rème', 'ssert', 'c'.repeat(3)]) {
      const term = wordPrefixTerm(q);
      expect([q, term !== null && held.has(term)]).toEqual([q, tails.some((t) => t.startsWith(wordSearchTerm(q)))]);
    }
  });
});

describe('wordPrefixTerm', () => {
  it('keys short terms and leaves long, blank or space-ended ones to the tails range', () => {
    expect(wordPrefixTerm('  Cola 3')).toBe('cola 3');
    expect(wordPrefixTerm('x'.repeat(WORD_PREFIX_LENGTH))).toBe('x'.repeat(WORD_PREFIX_LENGTH));
    expect(wordPrefixTerm('x'.repeat(WORD_PREFIX_LENGTH + 1))).toBeNull();
    expect(wordPrefixTerm('cola ')).toBeNull();
    expect(wordPrefixTerm('cola\t')).toBe('cola\t');
    expect(wordPrefixTerm('   ')).toBeNull();
    expect(wordPrefixTerm('😀'.repeat(WORD_PREFIX_LENGTH))).toBe('😀'.repeat(WORD_PREFIX_LENGTH));
  });
});
