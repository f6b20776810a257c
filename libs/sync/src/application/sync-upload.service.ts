import { Inject, Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { BadRequestError, Clock, ConflictError, DomainError, FieldErrors, ForbiddenError, RuleViolationError, ValidationFailedError } from '@pos/kernel';
import { hasPermission, Permission, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { CheckoutService, offlineTimeProblem, SaleDetailView, SaleReviewService } from '@pos/sales';
import { CustomerService } from '@pos/customers';
import { SessionService } from '@pos/sessions';
import { APP_CONFIG, AppConfig, isWriteDeadlineExceeded, withTransactionRetry } from '@pos/platform';
import { deviceName } from './sync-feed.service';
import { SyncDeviceRepository, SyncTransactionRepository, SyncTransactionWrite } from './sync.ports';
import { UploadCommand, UploadReport, UploadResult, UploadTransaction, UploadType } from './upload.types';

const PERMISSION: Record<UploadType, Permission> = { sale: 'sales.create', customer: 'customers.manage', cash_movement: 'sessions.manage' };
/** Fields of the transaction itself; every other field a use case names is inside `data`. */
const ENVELOPE_FIELDS: Record<UploadType, string[]> = {
  sale: ['idempotency_key', 'offline_created_at', 'store_id'],
  customer: ['idempotency_key', 'offline_created_at'],
  cash_movement: ['idempotency_key', 'offline_created_at'],
};
/** How long a sale waits for a concurrent upload of the same key to finish before giving up (retryable). */
const IN_FLIGHT_WAIT_MS = 30_000;

type Outcome = Pick<UploadResult, 'status' | 'original_status' | 'id' | 'receipt_number' | 'record' | 'code' | 'message' | 'errors'>;

/** The key is held by another request's outcome: answered from it. */
class KeyTaken extends Error {}

/** A transaction that names one not uploaded (or not accepted) yet: rejected for now, not for good. */
class AwaitsAnotherTransaction extends ValidationFailedError {}

/** One upload being applied: who, where, and the accepted sales' outcomes still to be written. */
interface UploadRun {
  principal: Principal;
  storeId: number;
  deviceId: number;
  acceptedSales: SyncTransactionWrite[];
}

/**
 * POST /sync/upload: each transaction applied on its own, in order, in its own database
 * transaction, and answered on its own; one bad transaction never drops the others.
 *  - sale: the sales context's checkout with the offline rules (CheckoutService.recordOffline);
 *  - customer: CustomerService.create; cash_movement: SessionService.recordOfflineCashMovement.
 * Exactly once per idempotency key: a sale by checkout's own idempotency (the key recorded with the sale and a
 * unique index on the sale); a customer or cash movement by its outcome row, written in the
 * same transaction as the record. Every settled outcome is kept by key: the same transaction
 * sent again answers `duplicate` with the original outcome (accepted or rejected); a corrected
 * transaction (other content) under a rejected key is applied afresh; other content under an
 * accepted key is rejected. Rejections that depend on the moment (a concurrent upload still
 * running, a missing permission, a server error) are not kept: sending again retries.
 */
@Injectable()
export class SyncUploadService {
  private readonly logger = new Logger(SyncUploadService.name);

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly stores: StoreContext,
    private readonly checkout: CheckoutService,
    private readonly saleReviews: SaleReviewService,
    private readonly customers: CustomerService,
    private readonly sessions: SessionService,
    private readonly outcomes: SyncTransactionRepository,
    private readonly devices: SyncDeviceRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** More than SYNC_UPLOAD_MAX_TRANSACTIONS in one upload: 422 (checked before any is read). */
  assertSize(count: number): void {
    const max = this.config.sync.uploadMaxTransactions;
    if (count > max) throw ValidationFailedError.field('transactions', `The transactions field must not have more than ${max} items.`);
  }

  async upload(principal: Principal, storeId: number, transactions: UploadTransaction[]): Promise<UploadReport> {
    this.assertSize(transactions.length);
    await this.stores.resolve(principal, storeId);
    const device = await withTransactionRetry(this.txHost, () => this.devices.ensure(principal.userId, storeId, deviceName(principal), this.clock.now()));
    const run: UploadRun = { principal, storeId, deviceId: device.id, acceptedSales: [] };
    const results: UploadResult[] = [];
    try {
      for (const [index, tx] of transactions.entries()) {
        const outcome = await this.one(run, tx);
        results.push({ index, idempotency_key: tx.key, type: tx.type, ...outcome, review: null });
      }
    } finally {
      await this.writeAcceptedSales(run);
    }
    await this.attachReviews(results);
    const count = (s: UploadResult['status']) => results.filter((r) => r.status === s).length;
    const counts = { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected') };
    await withTransactionRetry(this.txHost, () => this.devices.recordUpload(device.id, counts, this.clock.now()));
    return { store_id: storeId, server_time: this.clock.now().toISOString(), received: transactions.length, ...counts, results };
  }

  private async one(run: UploadRun, tx: UploadTransaction): Promise<Outcome> {
    const { principal } = run;
    if (!tx.key)
      return rejected('validation_failed', 'The given data was invalid.', tx.problems ?? { idempotency_key: ['The idempotency_key field is required.'] });
    const existing = run.acceptedSales.find((w) => w.idempotencyKey === tx.key) ?? (await this.outcomes.find(tx.key));
    if (existing?.fingerprint === tx.fingerprint) return duplicateOf(existing);
    if (existing?.status === 'accepted') return keyReused();
    const settle = (o: Outcome) => this.remember(run, tx, o);
    if (tx.problems || !tx.command) return settle(rejected('validation_failed', 'The given data was invalid.', tx.problems ?? {}));
    if (tx.offlineCreatedAt) {
      const problem = offlineTimeProblem(tx.offlineCreatedAt, this.clock.now(), {
        maxAgeDays: this.config.sync.offlineMaxAgeDays,
        clockSkewSeconds: this.config.sync.offlineClockSkewSeconds,
      });
      if (problem) return settle(rejected('offline_time_refused', problem, { offline_created_at: [problem] }));
    } else if (tx.command.type !== 'customer') {
      return settle(rejected('validation_failed', 'The given data was invalid.', { offline_created_at: ['The offline_created_at field is required.'] }));
    }
    const permission = PERMISSION[tx.command.type];
    if (!hasPermission(principal, permission))
      return rejected('forbidden', `You do not have the ${permission} permission.`, { type: [`You do not have the ${permission} permission.`] });
    try {
      return await this.apply(run, tx, tx.command, existing);
    } catch (error) {
      // Past the upload's deadline nothing more commits: the upload answers 503 and is sent again
      // (what committed before answers `duplicate` then).
      if (isWriteDeadlineExceeded(error)) throw error;
      if (error instanceof KeyTaken) {
        const now = await this.outcomes.find(tx.key);
        return now?.fingerprint === tx.fingerprint ? duplicateOf(now) : keyReused();
      }
      if (error instanceof ConflictError && error.code === 'idempotency_in_flight') {
        return rejected('in_flight', 'The same transaction is still being applied by another upload; send it again shortly.', null);
      }
      if (error instanceof ForbiddenError) return rejected(error.code, error.message, { data: [error.message] });
      if (error instanceof AwaitsAnotherTransaction) return rejectionOf(error, tx.command.type);
      if (error instanceof DomainError) return settle(rejectionOf(error, tx.command.type));
      this.logger.error({ err: error, idempotency_key: tx.key }, 'Offline transaction failed');
      return rejected('server_error', 'The transaction could not be applied because of a server error; send it again.', null);
    }
  }

  private apply(run: UploadRun, tx: UploadTransaction, command: UploadCommand, existing: SyncTransactionWrite | null): Promise<Outcome> {
    const { principal, storeId } = run;
    switch (command.type) {
      case 'sale':
        return this.sale(run, tx, command.input, command.customerRef);
      case 'customer':
        return this.exactlyOnce(run, tx, existing, async () => {
          const c = await this.customers.create(principal, command.input);
          return { id: c.id, receipt_number: null, record: { id: c.id, name: c.name, email: c.email, phone: c.phone } };
        });
      case 'cash_movement':
        return this.exactlyOnce(run, tx, existing, async () => {
          const { movement } = await this.sessions.recordOfflineCashMovement(principal, { storeId, at: tx.offlineCreatedAt!, ...command.input });
          return {
            id: movement.id,
            receipt_number: null,
            record: { id: movement.id, session_id: movement.session_id, type: movement.type, amount: movement.amount },
          };
        });
    }
  }

  /**
   * Checkout guarantees one sale per key; a concurrent upload of the same sale is waited for,
   * then answered as a duplicate. The outcome row is written with the other accepted sales at
   * the end of the upload (one commit for all): until then, or if that write is lost, a repeat
   * is still answered as a duplicate by checkout's own idempotency record.
   */
  private async sale(run: UploadRun, tx: UploadTransaction, input: Extract<UploadCommand, { type: 'sale' }>['input'], customerRef?: string) {
    const { principal, storeId } = run;
    if (customerRef !== undefined) input = { ...input, customerId: await this.customerCreatedOffline(customerRef) };
    const syncedAt = this.clock.now();
    const attempt = () =>
      this.checkout.recordOffline(principal, { ...input, storeId, idempotencyKey: tx.key!, offlineCreatedAt: tx.offlineCreatedAt! }, tx.fingerprint, {
        createdAt: tx.offlineCreatedAt!,
        syncedAt,
      });
    const outcome = await this.waitingForInFlight(attempt);
    const sale = outcome.body as SaleDetailView;
    const record = {
      id: sale.id,
      receipt_number: sale.receipt_number,
      total_amount: sale.total_amount,
      session_id: sale.session_id,
      created_at: sale.created_at,
      synced_at: sale.synced_at,
    };
    run.acceptedSales.push(this.write(run, tx, { status: 'accepted', recordId: sale.id, receiptNumber: sale.receipt_number, record }));
    const result: Outcome = { ...NONE, status: 'accepted', id: sale.id, receipt_number: sale.receipt_number, record };
    return outcome.replayed ? { ...result, status: 'duplicate' as const, original_status: 'accepted' as const } : result;
  }

  /** Each sale flagged for review (its first upload or a duplicate of it) carries its review: one read for the upload. */
  private async attachReviews(results: UploadResult[]): Promise<void> {
    const sales = results.filter((r) => r.type === 'sale' && r.id !== null && (r.status === 'accepted' || r.original_status === 'accepted'));
    if (!sales.length) return;
    const reviews = await this.saleReviews.ofSales(sales.map((r) => r.id!));
    for (const r of sales) r.review = reviews.get(r.id!) ?? null;
  }

  /** A customer the terminal created offline, named by its transaction's key: it must have been accepted (earlier in the upload, or before). */
  private async customerCreatedOffline(key: string): Promise<number> {
    const created = await this.outcomes.find(key);
    if (created?.type !== 'customer' || created.status !== 'accepted' || created.recordId === null) {
      throw new AwaitsAnotherTransaction({ customer_ref: ['No accepted customer transaction has this idempotency_key; upload the customer first.'] });
    }
    return created.recordId;
  }

  /** The outcome row is claimed in the record's own transaction: two uploads of one key make one record. */
  private async exactlyOnce(
    run: UploadRun,
    tx: UploadTransaction,
    existing: SyncTransactionWrite | null,
    work: () => Promise<{ id: number; receipt_number: string | null; record: Record<string, unknown> }>,
  ): Promise<Outcome> {
    return withTransactionRetry(this.txHost, async () => {
      const now = this.clock.now();
      if (existing) await this.outcomes.dropRejected(existing.idempotencyKey, existing.fingerprint);
      const claim = this.write(run, tx, { status: 'accepted', recordId: null, receiptNumber: null, record: null });
      if (!(await this.outcomes.insert(claim, now))) throw new KeyTaken();
      const done = await work();
      await this.outcomes.update(tx.key!, { recordId: done.id, receiptNumber: done.receipt_number, result: JSON.stringify(done.record) }, now);
      return { ...NONE, status: 'accepted' as const, ...done };
    });
  }

  private async waitingForInFlight<T>(run: () => Promise<T>): Promise<T> {
    const until = Date.now() + IN_FLIGHT_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const inFlight = error instanceof ConflictError && error.code === 'idempotency_in_flight';
        if (!inFlight || Date.now() >= until) throw error;
        await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      }
    }
  }

  /** A rejection decided by the transaction's content is kept, so the same transaction sent again gets the same answer. */
  private async remember(run: UploadRun, tx: UploadTransaction, outcome: Outcome): Promise<Outcome> {
    const write = this.write(run, tx, { status: 'rejected', recordId: null, receiptNumber: null, record: null, outcome });
    await withTransactionRetry(this.txHost, () => this.outcomes.saveRejected(write, this.clock.now()));
    return outcome;
  }

  /** The accepted sales' outcome rows, in one transaction per 100. */
  private async writeAcceptedSales(run: UploadRun): Promise<void> {
    for (let i = 0; i < run.acceptedSales.length; i += 100) {
      const chunk = run.acceptedSales.slice(i, i + 100);
      await withTransactionRetry(this.txHost, async () => {
        for (const write of chunk) await this.outcomes.saveAccepted(write, this.clock.now());
      });
    }
    run.acceptedSales = [];
  }

  private write(
    run: UploadRun,
    tx: UploadTransaction,
    o: { status: 'accepted' | 'rejected'; recordId: number | null; receiptNumber: string | null; record: Record<string, unknown> | null; outcome?: Outcome },
  ): SyncTransactionWrite {
    return {
      idempotencyKey: tx.key!,
      fingerprint: tx.fingerprint,
      type: (tx.type ?? '').slice(0, 32),
      status: o.status,
      recordId: o.recordId,
      receiptNumber: o.receiptNumber,
      result: o.record ? JSON.stringify(o.record) : null,
      errors: o.outcome?.errors ? JSON.stringify(o.outcome.errors) : null,
      message: o.outcome?.message ? o.outcome.message.slice(0, 500) : null,
      deviceId: run.deviceId,
      userId: run.principal.userId,
      storeId: run.storeId,
      offlineCreatedAt: tx.offlineCreatedAt,
    };
  }
}

const NONE: Outcome = { status: 'rejected', original_status: null, id: null, receipt_number: null, record: null, code: null, message: null, errors: null };

function rejected(code: string, message: string, errors: FieldErrors | null): Outcome {
  return { ...NONE, status: 'rejected', code, message, errors };
}

function keyReused(): Outcome {
  const message = 'This idempotency key was already used for a different transaction.';
  return rejected('idempotency_key_reused', message, { idempotency_key: [message] });
}

function duplicateOf(r: SyncTransactionWrite): Outcome {
  return {
    ...NONE,
    status: 'duplicate',
    original_status: r.status,
    id: r.recordId,
    receipt_number: r.receiptNumber,
    record: r.result ? (JSON.parse(r.result) as Record<string, unknown>) : null,
    code: r.status === 'rejected' ? 'previously_rejected' : null,
    message: r.message,
    errors: r.errors ? (JSON.parse(r.errors) as FieldErrors) : null,
  };
}

/** A use case's error as a rejection with errors keyed within the transaction (`data.items.0.qty`). */
export function rejectionOf(error: DomainError, type: UploadType): Outcome {
  const inData = (field: string) => (ENVELOPE_FIELDS[type].includes(field.split('.')[0]) ? field : `data.${field}`);
  if (error instanceof ValidationFailedError || error instanceof RuleViolationError) {
    return rejected(error.code, error.message, Object.fromEntries(Object.entries(error.fields).map(([f, m]) => [inData(f), m])));
  }
  if (error instanceof BadRequestError && error.code === 'total_mismatch') return rejected(error.code, error.message, { 'data.total_amount': [error.message] });
  return rejected(error.code, error.message, { data: [error.message] });
}
