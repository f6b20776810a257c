import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { SecretSealer } from './secret-sealer';

const APP_KEY = 'k'.repeat(40);

describe('SecretSealer', () => {
  it('round-trips and never stores the secret in clear', () => {
    const sealer = new SecretSealer(APP_KEY, 'webhook-secret');
    const sealed = sealer.seal('whsec_abc123');
    expect(sealed).not.toContain('whsec_abc123');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealer.unseal(sealed)).toBe('whsec_abc123');
    expect(sealer.seal('same')).not.toBe(sealer.seal('same')); // random IV
  });

  it('refuses another purpose, another APP_KEY and altered values', () => {
    const sealed = new SecretSealer(APP_KEY, 'webhook-secret').seal('s3cret');
    expect(() => new SecretSealer(APP_KEY, 'two-factor').unseal(sealed)).toThrow();
    expect(() => new SecretSealer('x'.repeat(40), 'webhook-secret').unseal(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => new SecretSealer(APP_KEY, 'webhook-secret').unseal(parts.join('.'))).toThrow();
    expect(() => new SecretSealer(APP_KEY, 'webhook-secret').unseal('plain')).toThrow(/Unreadable/);
  });

  it('opens two-factor secrets sealed before it moved to platform (same key derivation)', () => {
    // The format identity's TOTP provider wrote: key = sha256("two-factor:" + APP_KEY).
    const key = createHash('sha256').update(`two-factor:${APP_KEY}`).digest();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update('JBSWY3DPEHPK3PXP', 'utf8'), cipher.final()]);
    const legacy = ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    expect(new SecretSealer(APP_KEY, 'two-factor').unseal(legacy)).toBe('JBSWY3DPEHPK3PXP');
  });
});
