import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, SecretSealer, WebhookConfig } from '@pos/platform';

/** The webhook part of the validated configuration, plus what follows from it. */
@Injectable()
export class WebhookSettings {
  readonly config: WebhookConfig;
  readonly allowPrivateTargets: boolean;
  /**
   * A sender's lease on a delivery: longer than any attempt can take (the request is cut at the
   * timeout), so a live sender never loses it and a dead one's is free soon after.
   */
  readonly leaseMs: number;
  /** This process, as the holder of leases. */
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** The old secret keeps signing beside the new one this long after a rotation. */
  readonly rotationOverlapMs = 24 * 3_600_000;
  /**
   * Isolation of the relay's transaction. MySQL/InnoDB at REPEATABLE READ would take gap locks
   * with the claim (SELECT ... FOR UPDATE), blocking every change that writes an event (a sale)
   * until the relay commits; READ COMMITTED locks only the rows claimed. SQLite: the default.
   */
  readonly relayIsolation: 'READ COMMITTED' | undefined;
  /**
   * Whether an attempt's claim (one UPDATE, then a read) needs a transaction of its own. SQLite
   * does: all transactions share one connection, so a lone write would join whichever one is open.
   * MySQL does not: the UPDATE commits alone, which saves two round trips on every attempt.
   */
  readonly claimInTransaction: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.config = config.webhooks;
    this.allowPrivateTargets = config.webhookAllowPrivateTargets;
    this.leaseMs = config.webhooks.timeoutMs + 5_000;
    this.relayIsolation = config.db.type === 'mysql' ? 'READ COMMITTED' : undefined;
    this.claimInTransaction = config.db.type === 'sqlite';
  }
}

/** Signing secrets are sealed under APP_KEY (as two-factor secrets are) and opened only to sign. */
@Injectable()
export class WebhookSecrets {
  private readonly sealer: SecretSealer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.sealer = new SecretSealer(config.appKey, 'webhook-signing-secret');
  }

  seal(secret: string): string {
    return this.sealer.seal(secret);
  }

  unseal(sealed: string): string {
    return this.sealer.unseal(sealed);
  }
}
