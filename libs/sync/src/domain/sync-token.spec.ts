import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { decodeCursor, decodeSyncToken, encodeCursor, encodeSyncToken, FeedCursor, SyncToken } from './sync-token';

const sign = (payload: string) => createHmac('sha256', 'test-key').update(payload).digest('base64url').slice(0, 22);
const otherSign = (payload: string) => createHmac('sha256', 'other-key').update(payload).digest('base64url').slice(0, 22);

const token: SyncToken = { storeId: 3, issuedAt: new Date('2026-11-20T10:00:00.123Z'), warehouseIds: [1, 3], priceBookIds: [2], referenceHash: 'abc123' };

describe('sync token', () => {
  it('round-trips and is opaque (no readable store or time in plain text)', () => {
    const raw = encodeSyncToken(token, sign);
    expect(raw).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(decodeSyncToken(raw, sign)).toEqual(token);
  });

  it('refuses anything it did not issue: another key, a changed body, a truncated or garbage value', () => {
    const raw = encodeSyncToken(token, sign);
    expect(decodeSyncToken(raw, otherSign)).toBeNull();
    const [body, sig] = raw.split('.');
    const forged = Buffer.from(JSON.stringify({ v: 1, s: 3, t: Date.now(), w: [1, 3], b: [2], r: 'abc123' })).toString('base64url');
    expect(decodeSyncToken(`${forged}.${sig}`, sign)).toBeNull();
    expect(decodeSyncToken(body, sign)).toBeNull();
    expect(decodeSyncToken(raw.slice(0, -1), sign)).toBeNull();
    for (const junk of ['', '.', 'a.b', '{}', 'x'.repeat(30_000)]) expect(decodeSyncToken(junk, sign)).toBeNull();
  });

  it('never throws on arbitrary input, and only accepts well-formed signed tokens', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(decodeSyncToken(s, sign)).toBeNull();
        expect(decodeCursor(s, sign)).toBeNull();
      }),
    );
    // a signed body that is not a token of this version is still refused
    const signed = (json: unknown) => {
      const body = Buffer.from(JSON.stringify(json)).toString('base64url');
      return `${body}.${sign(body)}`;
    };
    expect(decodeSyncToken(signed({ v: 2, s: 1, t: 1, w: [], b: [], r: '' }), sign)).toBeNull();
    expect(decodeSyncToken(signed({ v: 1, s: -1, t: 1, w: [], b: [], r: '' }), sign)).toBeNull();
    expect(decodeSyncToken(signed({ v: 1, s: 1, t: 1, w: ['1'], b: [], r: '' }), sign)).toBeNull();
    expect(decodeSyncToken(signed({ v: 1, s: 1, t: 1, w: [], b: [], r: '' }), sign)).toEqual({
      storeId: 1,
      issuedAt: new Date(1),
      warehouseIds: [],
      priceBookIds: [],
      referenceHash: '',
    });
  });
});

describe('feed cursor', () => {
  it('round-trips initial and delta cursors', () => {
    const initial: FeedCursor = { kind: 'initial', token, since: null, section: 2, afterId: 41 };
    const delta: FeedCursor = { kind: 'delta', token, since: { ...token, issuedAt: new Date('2026-11-19T00:00:00Z') }, section: 0, afterId: 0 };
    expect(decodeCursor(encodeCursor(initial, sign), sign)).toEqual(initial);
    expect(decodeCursor(encodeCursor(delta, sign), sign)).toEqual(delta);
    expect(decodeCursor(encodeCursor(delta, sign), otherSign)).toBeNull();
  });

  it('refuses a delta cursor without its since token, and negative positions', () => {
    expect(decodeCursor(encodeCursor({ kind: 'delta', token, since: null, section: 0, afterId: 0 }, sign), sign)).toBeNull();
    expect(decodeCursor(encodeCursor({ kind: 'initial', token, since: null, section: -1, afterId: 0 }, sign), sign)).toBeNull();
    expect(decodeCursor(encodeSyncToken(token, sign), sign)).toBeNull();
  });
});
