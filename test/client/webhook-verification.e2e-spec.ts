import { signatureHeader } from '@pos/webhooks/domain/signature';
import { verifyWebhook, verifyWebhookSignature, webhookSignature, WebhookVerificationError } from '@pos/client';

/**
 * The client's webhook check against the service's own signer (libs/webhooks): what the service
 * signs verifies, including the two signatures of a rotation, and anything else is refused with
 * its reason. No server: pure functions on both sides.
 */
describe('TypeScript client: webhook verification', () => {
  const secret = 'whsec_current';
  const previous = 'whsec_previous';
  const body = '{"id":7,"type":"sale.completed","created_at":"2026-11-26T06:00:00.000Z","data":{"id":42,"total_amount":"9.99"}}';
  const now = 1_790_000_000;
  const headers = (signature: string, timestamp = now) => ({
    'X-Service-Signature': signature,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Delivery-Id': '5b7c9a8e-2f1d-4c3b-9a6e-1d2c3b4a5f60',
  });
  const at = () => now * 1000;
  const reason = (run: () => unknown): string | undefined => {
    try {
      run();
      return undefined;
    } catch (e) {
      return e instanceof WebhookVerificationError ? e.reason : `unexpected ${String(e)}`;
    }
  };

  it('computes the signature the service sends', () => {
    expect(webhookSignature(secret, now, body)).toBe(signatureHeader([secret], now, body));
  });

  it('accepts what the service signs, as string or bytes, with any header case', () => {
    const verified = verifyWebhook({ secret, rawBody: Buffer.from(body), headers: headers(signatureHeader([secret], now, body)), now: at });
    expect(verified).toMatchObject({ event: { id: 7, type: 'sale.completed', data: { id: 42 } }, timestamp: now });
    expect(verified.deliveryId).toBe('5b7c9a8e-2f1d-4c3b-9a6e-1d2c3b4a5f60');
    const fetchHeaders = new Headers(headers(signatureHeader([secret], now, body)));
    expect(verifyWebhook({ secret, rawBody: body, headers: fetchHeaders, now: at }).event.id).toBe(7);
  });

  it('accepts either signature during a rotation, with the new or the old secret', () => {
    const both = signatureHeader([secret, previous], now, body);
    expect(verifyWebhookSignature(secret, now, body, both)).toBe(true);
    expect(verifyWebhookSignature(previous, now, body, both)).toBe(true);
    expect(verifyWebhookSignature(['whsec_other', previous], now, body, both)).toBe(true);
    expect(verifyWebhookSignature('whsec_other', now, body, both)).toBe(false);
  });

  it('refuses a changed body, another secret, a missing header, a stale or malformed timestamp', () => {
    const good = signatureHeader([secret], now, body);
    expect(reason(() => verifyWebhook({ secret, rawBody: body.replace('9.99', '0.99'), headers: headers(good), now: at }))).toBe('bad_signature');
    expect(reason(() => verifyWebhook({ secret: previous, rawBody: body, headers: headers(good), now: at }))).toBe('bad_signature');
    expect(reason(() => verifyWebhook({ secret, rawBody: body, headers: { 'X-Service-Timestamp': String(now) }, now: at }))).toBe('missing_header');
    expect(reason(() => verifyWebhook({ secret, rawBody: body, headers: headers(good, now - 301), now: at }))).toBe('stale_timestamp');
    expect(reason(() => verifyWebhook({ secret, rawBody: body, headers: { ...headers(good), 'X-Service-Timestamp': '17e8' }, now: at }))).toBe('bad_timestamp');
    // the signature binds the timestamp: an old delivery re-sent with a fresh timestamp fails
    expect(reason(() => verifyWebhook({ secret, rawBody: body, headers: headers(good, now + 60), now: at }))).toBe('bad_signature');
    // the tolerance can be widened or switched off for replays from the event log
    expect(
      verifyWebhook({ secret, rawBody: body, headers: headers(signatureHeader([secret], now - 3600, body), now - 3600), now: at, toleranceSeconds: null })
        .timestamp,
    ).toBe(now - 3600);
  });
});
