import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals secrets at rest (two-factor secrets, webhook signing secrets) with AES-256-GCM under a
 * key derived from APP_KEY and a purpose, so a secret sealed for one purpose never opens as
 * another. Sealed form: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). Changing APP_KEY makes
 * every sealed secret unreadable, which is the point: the database alone reveals nothing.
 */
export class SecretSealer {
  private readonly key: Buffer;

  constructor(appKey: string, purpose: string) {
    this.key = createHash('sha256').update(`${purpose}:${appKey}`).digest();
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** Throws when the value was not sealed by this key and purpose (or was altered). */
  unseal(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
