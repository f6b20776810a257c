import { Inject, Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { APP_CONFIG, AppConfig, SecretSealer } from '@pos/platform';
import { TwoFactorProvider } from '../application/ports';

/**
 * TOTP per RFC 6238 (SHA-1, 6 digits, 30 s, one step of clock drift either side). Secrets are
 * sealed at rest with AES-256-GCM under a key derived from APP_KEY (platform's SecretSealer).
 */
@Injectable()
export class TotpTwoFactorProvider extends TwoFactorProvider {
  private readonly sealer: SecretSealer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.sealer = new SecretSealer(config.appKey, 'two-factor');
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
    return this.sealer.seal(secret);
  }

  unseal(sealed: string): string {
    return this.sealer.unseal(sealed);
  }

  private totp(secret: string, label = 'user'): TOTP {
    return new TOTP({ issuer: 'POS Service', label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  }
}
