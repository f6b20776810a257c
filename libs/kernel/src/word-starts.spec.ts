import { WORD_TAIL_LENGTH, wordSearchTerm, wordTails } from './word-starts';

describe('wordTails', () => {
  it('starts a tail at every word: after spaces, and where a letter or digit follows punctuation', () => {
    expect(wordTails('Coca-Cola 330ml')).toEqual(['coca-cola 330ml', 'cola 330ml', '330ml']);
    expect(wordTails('  Crème  brûlée (XL)')).toEqual(['crème  brûlée (xl)', 'brûlée (xl)', '(xl)', 'xl)']);
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
