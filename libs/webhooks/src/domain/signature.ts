import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing (contract part 6, decisions.md): `X-Service-Signature` is the lowercase hex of
 * HMAC-SHA256(secret, timestamp + "." + raw body), the timestamp being `X-Service-Timestamp`
 * (Unix seconds). The key is the secret exactly as shown to the partner, as UTF-8 bytes.
 *
 * While a rotated-out secret is still valid (24 h), each request is signed with both: the header
 * carries the new signature, a comma, then the old one. A receiver accepts the request when any
 * of the comma-separated values matches its secret.
 */
export function signatureOf(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string): string {
  return secrets.map((s) => signatureOf(s, timestamp, rawBody)).join(',');
}

/** What a receiver does (the README shows the same in a few lines). */
export function verifySignature(header: string, secret: string, timestamp: number, rawBody: string): boolean {
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), 'utf8');
  return header.split(',').some((candidate) => {
    const given = Buffer.from(candidate.trim(), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** 256 random bits; the prefix tells a leaked string for what it is. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The body of every delivery: `{id, type, created_at, data}`, with `data` spliced in as stored (already JSON); a test send adds `"test":true`. */
export function deliveryBody(event: { id: number; type: string; createdAt: Date; payloadJson: string; test?: boolean }): string {
  const test = event.test ? ',"test":true' : '';
  return `{"id":${event.id},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(event.createdAt.toISOString())},"data":${event.payloadJson}${test}}`;
}
