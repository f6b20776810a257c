import { Inject, Injectable } from '@nestjs/common';
import { RateLimitedError } from '@pos/kernel';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { PasswordHasher } from './ports';

/** Seconds a client is told to wait when every verification slot and queue place is taken. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** 429: the process is already verifying and queueing as many passwords as it allows. */
export class PasswordChecksBusyError extends RateLimitedError {
  constructor() {
    super('password_checks_busy', 'Too many password checks are in progress; try again shortly.', BUSY_RETRY_AFTER_SECONDS);
  }
}

/**
 * Every password and PIN verification of the process goes through here. argon2id costs about
 * 64 MiB and a CPU core for a fifth of a second, on libuv's small thread pool (shared with file
 * and DNS work): unbounded, a burst of wrong logins takes all memory and every thread, and each
 * caller waits longer the more arrive. So at most `concurrency` run at once
 * (PASSWORD_VERIFY_CONCURRENCY), at most `queue` more wait their turn in arrival order
 * (PASSWORD_VERIFY_QUEUE), and any beyond are refused at once with PasswordChecksBusyError
 * (429, Retry-After) instead of waiting without bound. Callers hold no database connection
 * while they wait or verify (AuthService reads first, verifies, then opens its transaction).
 */
@Injectable()
export class PasswordCheckGate {
  private running = 0;
  /** Callers waiting for a slot, oldest first (at most `queueLimit`: shift() stays cheap). */
  private readonly waiting: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly queueLimit: number;

  constructor(
    private readonly hasher: PasswordHasher,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.concurrency = config.passwordVerify.concurrency;
    this.queueLimit = config.passwordVerify.queue;
  }

  async verify(hash: string, plain: string): Promise<boolean> {
    await this.acquire();
    try {
      return await this.hasher.verify(hash, plain);
    } finally {
      this.release();
    }
  }

  /** Verifications running and waiting now (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private acquire(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queueLimit) return Promise.reject(new PasswordChecksBusyError());
    // The slot is handed over by release(): `running` stays counted for the waiter.
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
