import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { TwoFactorProvider } from '../application/ports';

/**
 * TOTP per RFC 6238 (SHA-1, 6 digits, 30 s, one step of clock drift either side). Secrets are
 * sealed at rest with AES-256-GCM under a key derived from APP_KEY.
 */
@Injectable()
export class TotpTwoFactorProvider extends TwoFactorProvider {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.key = createHash('sha256').update(`two-factor:${config.appKey}`).digest();
  }

  generateSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  otpauthUrl(secret: string, account: string): string {
    return this.totp(secret, account).toString();
  }

  verify(secret: string, code: string): boolean {
    return this.verifyStep(secret, code) !== null;
  }

  verifyStep(secret: string, code: string, now = Date.now()): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const delta = this.totp(secret).validate({ token: code, window: 1, timestamp: now });
    return delta === null ? null : Math.floor(now / 1000 / 30) + delta;
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  unseal(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unreadable two-factor secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  private totp(secret: string, label = 'user'): TOTP {
    return new TOTP({ issuer: 'POS Service', label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  }
}
