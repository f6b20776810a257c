import { Inject, Injectable } from '@nestjs/common';
import { Clock, fromMinor, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, Principal } from '@pos/identity';
import { APP_CONFIG, AppConfig, IdempotentRequests, Metrics } from '@pos/platform';
import { pricedCartView } from '@pos/pricing';
import { SessionService } from '@pos/sessions';
import { CheckoutCompletion } from './checkout-completion';
import { CheckoutLines } from './checkout-lines';
import { CheckoutPreparation } from './checkout-preparation';
import { CheckoutRecords, wholeSeconds } from './checkout-records';
import { offlineTimeProblem } from '../domain/offline-policy';
import { CheckoutInput, CheckoutMode, CheckoutOutcome, OfflineSaleTimes } from './checkout.types';

export type { CheckoutInput, CheckoutLineInput, CheckoutOutcome, CheckoutPaymentInput, OfflineSaleTimes } from './checkout.types';

/** Idempotency scopes: a key used for one kind of sale is "a different request" for the other. */
const SCOPES = { online: 'checkout', offline: 'offline_sale' } as const;

/** What a committed sale counts in the metrics (once it has committed: a replay or a rollback is no sale). */
type Recorded = { sale?: { currency: string; total: number } };

/**
 * POST /pos/checkout: a pipeline of steps in one transaction, exactly once per idempotency key.
 *  1. the session the sale attaches to (an open one at a till: 409 without);
 *  2. CheckoutPreparation: every check that writes nothing (price, discount approvals, line rules,
 *     total, tenders; an offline upload's prices judged);
 *  3. CheckoutRecords: receipt number, sale, lines, payments, invoice;
 *  4. CheckoutLines.take: the goods leave through the stock ledger;
 *  5. CheckoutCompletion: audit entries, an offline sale's review, the sale.completed event (its
 *     detail is the response) and the domain facts.
 * Exactly once (platform's IdempotentRequests): the key is recorded last in the sale's transaction,
 * the stored response is replayed for the same body, 422 for another body, 409 while the first is
 * still running; the sale carries the key under a unique index too. Deadlocks are retried, the
 * whole transaction at once.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly idempotency: IdempotentRequests,
    private readonly sessions: SessionService,
    private readonly preparation: CheckoutPreparation,
    private readonly records: CheckoutRecords,
    private readonly lines: CheckoutLines,
    private readonly completion: CheckoutCompletion,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * POST /pos/checkout/validate: every check, the priced cart, nothing written. The total and the
   * tenders are checked when given; without tenders the cart is priced only (balance_due = total).
   */
  async validate(principal: Principal, input: CheckoutInput) {
    this.checkDeviceTime(input);
    const p = await this.preparation.prepare(principal, input, { stage: 'quote', offline: false });
    const sessionOk = await this.sessions.status(principal, input.storeId);
    const m = (v: number) => fromMinor(v, p.priced.decimals);
    return {
      valid: true,
      can_sell: sessionOk.can_sell,
      session_id: sessionOk.session?.id ?? null,
      ...pricedCartView(p.priced),
      payments: p.tenders.map((t) => ({
        payment_method_code: t.method.code,
        amount: m(t.amount),
        tendered: t.tendered === null ? null : m(t.tendered),
        applied: m(t.applied),
        change: m(t.change),
      })),
      change: m(p.change),
      balance_due: m(p.onAccount),
    };
  }

  async checkout(principal: Principal, input: CheckoutInput, fingerprint: string): Promise<CheckoutOutcome> {
    this.checkDeviceTime(input);
    return this.run(principal, input, fingerprint, { kind: 'online' });
  }

  /**
   * At the till, `offline_created_at` is the device's clock, kept on the sale as it was sent; the
   * sale itself is an online one: priced, checked against the stock and dated (created_at, the
   * return window) when the server records it. A sale rung while offline goes through
   * /sync/upload. The stamp is held to the upload's window (not in the future beyond the clock
   * skew, not older than the offline maximum age), so a till cannot record a sale as of any date.
   */
  private checkDeviceTime(input: CheckoutInput): void {
    if (input.offlineCreatedAt === undefined) return;
    const { offlineMaxAgeDays: maxAgeDays, offlineClockSkewSeconds: clockSkewSeconds } = this.config.sync;
    const problem = offlineTimeProblem(input.offlineCreatedAt, this.clock.now(), { maxAgeDays, clockSkewSeconds });
    if (problem) throw ValidationFailedError.field('offline_created_at', problem);
  }

  /**
   * A sale an offline terminal made (offline sync's upload), exactly once per idempotency key
   * like any checkout, with the offline rules: the price the terminal charged is kept (price
   * source `offline`; only explicit manual discounts are judged against the cashier's limits),
   * stock may go below zero (the goods already left), no open session is needed (the sale
   * attaches to the cashier's session that was open then, if any), created_at is when it
   * happened and synced_at when it arrived. Freshness of `createdAt` is the caller's policy.
   */
  async recordOffline(principal: Principal, input: CheckoutInput, fingerprint: string, times: OfflineSaleTimes): Promise<CheckoutOutcome> {
    return this.run(principal, { ...input, offlineCreatedAt: times.createdAt }, fingerprint, { kind: 'offline', ...times });
  }

  private async run(principal: Principal, input: CheckoutInput, fingerprint: string, mode: CheckoutMode): Promise<CheckoutOutcome> {
    assertStoreAccess(principal, input.storeId);
    const recorded: Recorded = {};
    const request = { scope: SCOPES[mode.kind], key: input.idempotencyKey, fingerprint, userId: principal.userId };
    const outcome = await this.idempotency.run(request, 201, () => this.commit(principal, input, mode, recorded));
    // Counted once committed (a replay or a rolled-back attempt is not a sale).
    if (!outcome.replayed && recorded.sale) this.metrics.saleRecorded(mode.kind, recorded.sale.currency, recorded.sale.total);
    return outcome;
  }

  /** The sale's transaction: the pipeline's steps in order (the statement budget counts on it). */
  private async commit(principal: Principal, input: CheckoutInput, mode: CheckoutMode, recorded: Recorded): Promise<unknown> {
    const session =
      mode.kind === 'online'
        ? await this.sessions.requireOpen(principal, input.storeId)
        : await this.sessions.sessionAt(principal.userId, input.storeId, mode.createdAt);
    const p = await this.preparation.prepare(principal, input, { stage: 'commit', offline: mode.kind === 'offline' });
    // Whole seconds (MySQL's DATETIME keeps no fraction): the records in memory are then exactly
    // what a later read returns, and the response is built from them without reading them back.
    const now = wholeSeconds(this.clock.now());
    const times =
      mode.kind === 'online' ? { createdAt: now, syncedAt: null } : { createdAt: wholeSeconds(mode.createdAt), syncedAt: wholeSeconds(mode.syncedAt) };
    const written = await this.records.write(principal, input, p, session?.id ?? null, now, times);
    await this.lines.take(principal, written.sale.id, p.store, input, p.priced, p.warehouses, mode.kind === 'offline');
    const detail = await this.completion.complete(written, p, now);
    if (mode.kind === 'offline' && session?.status === 'closed') {
      // Made while the session was open, arrived after its close: that counted drawer held its cash.
      const cash = written.payments.filter((x) => x.methodType === 'cash').reduce((a, x) => a + x.amount, 0);
      await this.sessions.restateForLateSale(session.id, cash, written.sale, now);
    }
    recorded.sale = { currency: written.sale.currencyCode, total: written.sale.totalAmount };
    return detail;
  }
}
