import { changeHorizon, decodeCursor, encodeCursor } from './change-cursor';
import { ValidationFailedError } from './errors';

function fieldsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationFailedError);
    return (e as ValidationFailedError).fields;
  }
  throw new Error('expected a ValidationFailedError');
}

describe('change cursors', () => {
  const t = new Date('2026-11-26T02:30:00.123Z');

  it('round-trips a position of its kind, keeping the milliseconds', () => {
    const raw = encodeCursor('sales', t, 42);
    expect(raw).toMatch(/^[A-Za-z0-9_-]+$/);
    const pos = decodeCursor('sales', raw);
    expect(pos.t.toISOString()).toBe('2026-11-26T02:30:00.123Z');
    expect(pos.id).toBe(42);
  });

  it('refuses the cursor of another feed on the field', () => {
    const raw = encodeCursor('sales', t, 42);
    expect(fieldsOf(() => decodeCursor('returns', raw))).toEqual({ cursor: [expect.stringContaining('not a valid cursor')] });
    expect(Object.keys(fieldsOf(() => decodeCursor('events', raw, 'after')))).toEqual(['after']);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$%'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['an array', Buffer.from('[1,2]').toString('base64url')],
    ['no id', Buffer.from(JSON.stringify({ k: 'sales', t: 1 })).toString('base64url')],
    ['a fractional id', Buffer.from(JSON.stringify({ k: 'sales', t: 1, i: 1.5 })).toString('base64url')],
    ['a negative stamp', Buffer.from(JSON.stringify({ k: 'sales', t: -1, i: 1 })).toString('base64url')],
    ['a string stamp', Buffer.from(JSON.stringify({ k: 'sales', t: '1', i: 1 })).toString('base64url')],
    ['a stamp past year 9999', Buffer.from(JSON.stringify({ k: 'sales', t: 9e15, i: 1 })).toString('base64url')],
    ['too long', 'A'.repeat(600)],
  ])('refuses a cursor that is %s', (_label, raw) => {
    expect(Object.keys(fieldsOf(() => decodeCursor('sales', raw)))).toEqual(['cursor']);
  });

  it('puts the horizon the settle time before now', () => {
    expect(changeHorizon(t, 60).toISOString()).toBe('2026-11-26T02:29:00.123Z');
    expect(changeHorizon(t, 0).getTime()).toBe(t.getTime());
    // whole-second stamps (MySQL): a second more, so a stamp rounded down is never served before its commit is due
    expect(changeHorizon(t, 60, 1000).toISOString()).toBe('2026-11-26T02:28:59.123Z');
  });
});
