import { createHmac } from 'node:crypto';
import { deliveryBody, newSigningSecret, signatureHeader, signatureOf, verifySignature } from './signature';

describe('webhook signature', () => {
  const body = '{"id":1,"type":"ping","created_at":"2025-01-01T00:00:00.000Z","data":{}}';

  it('is the lowercase hex HMAC-SHA256 of "timestamp.body" keyed by the secret', () => {
    const expected = createHmac('sha256', 'whsec_test').update(`1700000000.${body}`).digest('hex');
    expect(signatureOf('whsec_test', 1700000000, body)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(expected, 'whsec_test', 1700000000, body)).toBe(true);
    expect(verifySignature(expected, 'whsec_test', 1700000001, body)).toBe(false);
    expect(verifySignature(expected, 'whsec_other', 1700000000, body)).toBe(false);
    expect(verifySignature(expected, 'whsec_test', 1700000000, body + ' ')).toBe(false);
  });

  it('carries both signatures while a rotated secret is still valid; either verifies', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1700000000, body);
    expect(header.split(',')).toEqual([signatureOf('whsec_new', 1700000000, body), signatureOf('whsec_old', 1700000000, body)]);
    expect(verifySignature(header, 'whsec_new', 1700000000, body)).toBe(true);
    expect(verifySignature(header, 'whsec_old', 1700000000, body)).toBe(true);
    expect(verifySignature(header, 'whsec_x', 1700000000, body)).toBe(false);
  });

  it('makes unguessable secrets and the {id, type, created_at, data} body', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSigningSecret()).not.toBe(a);
    const json = deliveryBody({ id: 7, type: 'sale.completed', createdAt: new Date('2025-02-03T04:05:06.789Z'), payloadJson: '{"sale":{"id":3}}' });
    expect(JSON.parse(json)).toEqual({ id: 7, type: 'sale.completed', created_at: '2025-02-03T04:05:06.789Z', data: { sale: { id: 3 } } });
  });
});
