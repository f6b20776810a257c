import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { Signer } from '../domain/sync-token';

/** Signs sync tokens and cursors (HMAC-SHA256 under a key derived from APP_KEY, 128 bits kept). */
@Injectable()
export class SyncSigner {
  private readonly key: Buffer;
  readonly sign: Signer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = createHmac('sha256', config.appKey).update('offline-sync-token').digest();
    this.sign = (payload: string) => createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }
}
