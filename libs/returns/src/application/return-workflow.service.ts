import { Inject, Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock, ConflictError, documentNumber, FieldErrors, ForbiddenError, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, hasPermission, Principal } from '@pos/identity';
import { StockLedger, StockLine, StoreContext } from '@pos/catalog';
import { APP_CONFIG, AppConfig, AuditLog, ChangeLog, DomainEvents, IdempotentOutcome, IdempotentRequests, withTransactionRetry } from '@pos/platform';
import { RETURNABLE_SALE_STATUSES, ReturnableSale, SaleItemRecord, SaleReturns } from '@pos/sales';
import { SessionService } from '@pos/sessions';
import { returnEligibility } from '../domain/eligibility';
import { LineClaims, LineRefund, lineRefund, NO_CLAIMS } from '../domain/refund-amounts';
import { refundableTenders, RefundExceedsPaymentsError, RefundPart, splitRefund } from '../domain/refund-split';
import { canRestock, DEFAULT_CONDITION, ReturnCondition, stockAction } from '../domain/return-condition';
import { ReturnAction, statesAllowing, transition } from '../domain/return-status';
import { ReturnProcessedFacts, returnFactsOf } from './return.facts';
import { RETURN_DECISION_EVENTS, ReturnCreated, ReturnProcessed } from './return.events';
import { ReturnItemRecord, ReturnRepository, SaleReturnRecord } from './return.ports';
import { ReturnViews } from './return.views';

export interface ReturnLineInput {
  saleItemId: number;
  /** Units of the sale line (in the unit it was sold in). */
  quantity: number;
  condition?: ReturnCondition;
  restock?: boolean;
  notes?: string;
  warehouseId?: number;
}

export interface CreateReturnInput {
  saleId: number;
  items: ReturnLineInput[];
  reasonId?: number;
  reasonNotes?: string;
  internalNotes?: string;
  processImmediately?: boolean;
  idempotencyKey?: string;
}

/** A checked return line, with its refund. */
interface PreparedLine {
  index: number;
  sold: SaleItemRecord;
  quantity: number;
  condition: ReturnCondition;
  restock: boolean;
  warehouseId: number;
  notes: string | null;
  refund: LineRefund;
}

/**
 * Creating returns and moving them through their states (decisions.md): pending -> approved ->
 * processed, pending -> rejected, pending|approved -> cancelled, each wrong move a 409.
 *
 * Every write of a sale's returns runs in one transaction that starts by locking the sale (the
 * sales context's SaleReturns.lock): writers of one sale take turns and each reads what the
 * previous one committed. A return holds its units from creation (claims per sale line, only
 * ever raised by a conditional UPDATE within what was sold), so two returns of the last unit
 * cannot both be accepted; rejecting or cancelling gives them back. Processing then records the
 * return on the sale through SaleReturns.applyReturn (returned quantities, status, invoice),
 * which refuses again anything beyond what was sold.
 */
@Injectable()
export class ReturnWorkflowService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly returns: ReturnRepository,
    private readonly views: ReturnViews,
    private readonly sales: SaleReturns,
    private readonly sessions: SessionService,
    private readonly stores: StoreContext,
    private readonly ledger: StockLedger,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly domainEvents: DomainEvents,
    private readonly idempotency: IdempotentRequests,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * POST /returns. With an idempotency key, exactly once (the same rules as checkout: replay,
   * 422 for another body, 409 while the first runs). `processImmediately` needs returns.process.
   */
  async create(principal: Principal, input: CreateReturnInput, fingerprint: string): Promise<IdempotentOutcome> {
    if (input.processImmediately && !hasPermission(principal, 'returns.process')) {
      throw new ForbiddenError('Processing a return immediately requires the returns.process permission.', 'permission_required');
    }
    const work = () => this.createNow(principal, input);
    if (input.idempotencyKey === undefined) return { replayed: false, status: 200, body: await withTransactionRetry(this.txHost, work) };
    return this.idempotency.run({ scope: 'return', key: input.idempotencyKey, fingerprint, userId: principal.userId }, 200, work);
  }

  approve(principal: Principal, id: number) {
    return this.decide(principal, id, 'approve', (now) => ({ approvedBy: principal.userId, approvedAt: now }));
  }

  reject(principal: Principal, id: number, notes?: string) {
    return this.decide(principal, id, 'reject', (now) => ({ rejectedBy: principal.userId, rejectedAt: now, decisionNotes: notes ?? null }));
  }

  cancel(principal: Principal, id: number, notes?: string) {
    return this.decide(principal, id, 'cancel', (now) => ({ cancelledBy: principal.userId, cancelledAt: now, decisionNotes: notes ?? null }));
  }

  /** Refunds, credit note, stock, the sale's status and the session's cash, in one transaction. */
  async process(principal: Principal, id: number) {
    const found = await this.visible(principal, id);
    return withTransactionRetry(this.txHost, async () => {
      await this.sales.lock(found.saleId);
      const r = (await this.returns.find(id))!;
      transition(r.status, 'process');
      await this.processLocked(principal, r);
      return this.views.detail(id);
    });
  }

  private async createNow(principal: Principal, input: CreateReturnInput) {
    await this.sales.lock(input.saleId);
    const sale = await this.sales.find(principal, input.saleId);
    const now = this.clock.now();
    // Lines with no unit left are reported on their own quantity (below), not as the sale's.
    const eligibility = returnEligibility({ status: sale.sale.status, soldAt: sale.sale.createdAt }, now, this.config.returnWindowDays);
    if (!eligibility.eligible) throw ValidationFailedError.field('sale_id', eligibility.message!);
    const claims = await this.claimsOf(sale);
    const lines = await this.prepareLines(sale, input, claims);
    const store = (await this.stores.store(sale.sale.storeId))!;
    const warehouses = [...new Set(lines.map((l) => l.warehouseId))];
    const sum = (pick: (r: LineRefund) => number) => lines.reduce((a, l) => a + pick(l.refund), 0);
    const created = await this.returns.insertReturn({
      number: documentNumber('return', store.code, await this.returns.nextNumber(store.id, 'return')),
      storeId: store.id,
      saleId: sale.sale.id,
      receiptNumber: sale.sale.receiptNumber,
      warehouseId: warehouses.length === 1 ? warehouses[0] : null,
      customerId: sale.sale.customerId,
      userId: principal.userId,
      status: 'pending',
      reasonId: input.reasonId ?? null,
      reasonNotes: input.reasonNotes ?? null,
      internalNotes: input.internalNotes ?? null,
      decisionNotes: null,
      currencyCode: sale.sale.currencyCode,
      refundNet: sum((r) => r.net),
      refundTax: sum((r) => r.tax),
      refundTotal: sum((r) => r.total),
      idempotencyKey: input.idempotencyKey ?? null,
      sessionId: null,
      approvedBy: null,
      approvedAt: null,
      rejectedBy: null,
      rejectedAt: null,
      cancelledBy: null,
      cancelledAt: null,
      processedBy: null,
      processedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.returns.insertItems(
      lines.map((l, lineNo) => ({
        returnId: created.id,
        lineNo,
        saleItemId: l.sold.id,
        itemId: l.sold.itemId,
        sku: l.sold.sku,
        name: l.sold.name,
        unitName: l.sold.unitName,
        factor: l.sold.factor,
        quantity: l.quantity,
        baseQuantity: l.quantity * l.sold.factor,
        condition: l.condition,
        restock: l.restock,
        warehouseId: l.warehouseId,
        serialNumber: l.sold.serialNumber,
        notes: l.notes,
        refundNet: l.refund.net,
        refundTax: l.refund.tax,
        refundTotal: l.refund.total,
        cost: l.refund.cost,
      })),
    );
    // The guard that holds however requests race: units are held only within what was sold.
    for (const l of [...lines].sort((a, b) => a.sold.id - b.sold.id)) {
      if (!(await this.returns.claim(l.sold.id, l.quantity, l.refund.total, l.refund.tax))) {
        throw ValidationFailedError.field(`items.${l.index}.quantity`, 'The quantity is more than is still returnable on this sale line.');
      }
    }
    await this.changes.event(ReturnCreated, { return: await this.views.detail(created.id) }, store.id);
    if (input.processImmediately) {
      await this.returns.update(created.id, ['pending'], { status: 'approved', approvedBy: principal.userId, approvedAt: now, updatedAt: now });
      await this.processLocked(principal, { ...created, status: 'approved', approvedBy: principal.userId, approvedAt: now });
    }
    return this.views.detail(created.id);
  }

  /** Units and refunds already held on each line of the sale (a claim row per line, created on first use). */
  private async claimsOf(sale: ReturnableSale): Promise<Map<number, LineClaims>> {
    await this.returns.ensureClaims(sale.items.map((l) => ({ saleItemId: l.id, saleId: sale.sale.id, soldQuantity: l.quantity })));
    return new Map(
      (await this.returns.claims(sale.sale.id)).map((c) => [c.saleItemId, { quantity: c.claimedQuantity, total: c.claimedTotal, tax: c.claimedTax }]),
    );
  }

  /** Every line (and the reason) checked, each problem a 422 named by its field; the lines with their refunds. */
  private async prepareLines(sale: ReturnableSale, input: CreateReturnInput, claims: Map<number, LineClaims>): Promise<PreparedLine[]> {
    const errors: FieldErrors = {};
    if (input.reasonId !== undefined && !(await this.returns.reasonsByIds([input.reasonId])).some((r) => r.isActive)) {
      errors.reason_id = ['The selected return reason does not exist or is no longer active.'];
    }
    const soldLines = new Map(sale.items.map((l) => [l.id, l]));
    const seen = new Set<number>();
    const serves = new Map<number, boolean>();
    const prepared: PreparedLine[] = [];
    for (const [index, l] of input.items.entries()) {
      const f = `items.${index}`;
      const sold = soldLines.get(l.saleItemId);
      if (!sold) {
        errors[`${f}.sale_item_id`] = ['The selected sale line does not belong to this sale.'];
        continue;
      }
      if (seen.has(sold.id)) {
        errors[`${f}.sale_item_id`] = ['The sale line is listed twice; give its whole quantity once.'];
        continue;
      }
      seen.add(sold.id);
      const condition = l.condition ?? DEFAULT_CONDITION;
      const restock = l.restock ?? canRestock(condition);
      if (restock && !canRestock(condition)) errors[`${f}.restock`] = [`Goods returned ${condition} cannot be restocked; they are written off.`];
      if (l.warehouseId !== undefined) {
        if (!serves.has(l.warehouseId)) {
          const w = await this.stores.warehouse(l.warehouseId);
          serves.set(l.warehouseId, !!w?.isActive && (await this.stores.serves(l.warehouseId, sale.sale.storeId)));
        }
        if (!serves.get(l.warehouseId)) errors[`${f}.warehouse_id`] = ["The selected warehouse does not exist or does not serve the sale's store."];
      }
      const claimed = claims.get(sold.id) ?? NO_CLAIMS;
      const left = sold.quantity - claimed.quantity;
      if (l.quantity > left) {
        errors[`${f}.quantity`] = [
          left === 0
            ? 'Every unit of this sale line is already returned or held by another return.'
            : `The quantity may not be greater than ${left} (still returnable on this sale line).`,
        ];
        continue;
      }
      prepared.push({
        index,
        sold,
        quantity: l.quantity,
        condition,
        restock,
        warehouseId: l.warehouseId ?? sold.warehouseId,
        notes: l.notes ?? null,
        refund: lineRefund({ quantity: sold.quantity, total: sold.total, tax: sold.tax, unitCost: sold.unitCost }, claimed, l.quantity),
      });
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    return prepared;
  }

  /** approve, reject, cancel: a conditional state change; rejecting or cancelling gives the held units back. */
  private async decide(principal: Principal, id: number, action: Exclude<ReturnAction, 'process'>, changes: (now: Date) => Partial<SaleReturnRecord>) {
    const found = await this.visible(principal, id);
    return withTransactionRetry(this.txHost, async () => {
      await this.sales.lock(found.saleId);
      const r = (await this.returns.find(id))!;
      const next = transition(r.status, action);
      const now = this.clock.now();
      if (!(await this.returns.update(id, statesAllowing(action), { status: next, ...changes(now), updatedAt: now }))) {
        throw new ConflictError('invalid_return_state', 'The return changed meanwhile; read it again.');
      }
      const held = next === 'rejected' || next === 'cancelled' ? await this.returns.items([id]) : [];
      for (const l of held.sort((a, b) => a.saleItemId - b.saleItemId)) await this.returns.release(l.saleItemId, l.quantity, l.refundTotal, l.refundTax);
      await this.audit.record({
        action: `return.${next}`,
        target: { type: 'return', id },
        storeId: r.storeId,
        before: { status: r.status },
        after: { status: next },
      });
      const detail = await this.views.detail(id);
      await this.changes.event(RETURN_DECISION_EVENTS[next as keyof typeof RETURN_DECISION_EVENTS], { return: detail }, r.storeId);
      return detail;
    });
  }

  /** Processes an approved return of a sale locked by the caller's transaction. */
  private async processLocked(principal: Principal, r: SaleReturnRecord): Promise<void> {
    const sale = await this.sales.find(principal, r.saleId);
    if (!RETURNABLE_SALE_STATUSES.includes(sale.sale.status)) {
      throw new ConflictError('sale_not_returnable', `The sale is ${sale.sale.status}; the return cannot be processed.`);
    }
    const now = this.clock.now();
    const items = await this.returns.items([r.id]);
    const refunds = this.refundSplit(sale, r, await this.returns.saleRefunds(r.saleId));
    const onAccount = refunds.filter((p) => p.methodType === 'on_account').reduce((a, p) => a + p.amount, 0);
    const sessionId = await this.sessions.openSessionId(principal.userId, r.storeId);
    await this.sessions.assertDrawerHolds(
      sessionId,
      refunds.filter((p) => p.methodType === 'cash').reduce((a, p) => a + p.amount, 0),
    );
    if (!(await this.returns.update(r.id, ['approved'], { status: 'processed', processedBy: principal.userId, processedAt: now, sessionId, updatedAt: now }))) {
      throw new ConflictError('invalid_return_state', 'The return changed meanwhile; read it again.');
    }
    const store = (await this.stores.store(r.storeId))!;
    const creditNote = sale.invoice
      ? await this.returns.insertCreditNote({
          number: documentNumber('credit_note', store.code, await this.returns.nextNumber(store.id, 'credit_note')),
          storeId: r.storeId,
          saleId: r.saleId,
          invoiceId: sale.invoice.id,
          returnId: r.id,
          customerId: r.customerId,
          currencyCode: r.currencyCode,
          amount: r.refundTotal,
          net: r.refundNet,
          tax: r.refundTax,
          onAccount,
          issuedAt: now,
          createdAt: now,
        })
      : null;
    const applied = await this.sales.applyReturn(
      r.saleId,
      items.map((l) => ({ saleItemId: l.saleItemId, quantity: l.quantity, field: `items.${l.lineNo}.quantity` })),
      { onAccount },
      creditNote ? { amount: creditNote.amount } : null,
    );
    await this.moveStock(principal, r, items);
    await this.returns.insertRefunds(refunds.map((p) => ({ ...p, returnId: r.id, createdAt: now })));
    const detail = await this.views.detail(r.id);
    await this.audit.record({
      action: 'return.processed',
      target: { type: 'return', id: r.id },
      storeId: r.storeId,
      before: { status: 'approved' },
      after: { status: 'processed', refund_total: detail.refund_total, refunds: detail.refunds, credit_note: detail.credit_note?.number ?? null },
    });
    await this.changes.event(
      ReturnProcessed,
      { return: detail, sale: { id: r.saleId, receipt_number: r.receiptNumber, status: applied.sale.status } },
      r.storeId,
    );
    const reason = r.reasonId === null ? undefined : (await this.returns.reasonsByIds([r.reasonId]))[0];
    await this.domainEvents.publish(
      ReturnProcessedFacts,
      returnFactsOf(
        { ...r, status: 'processed', processedBy: principal.userId, processedAt: now, sessionId },
        items,
        refunds,
        creditNote,
        reason?.code ?? null,
      ),
    );
  }

  /** Back to the original payment methods: cash first, then the others; on account within the invoice balance. */
  private refundSplit(sale: ReturnableSale, r: SaleReturnRecord, refundedBefore: { paymentMethodId: number; amount: number }[]): RefundPart[] {
    try {
      return splitRefund(r.refundTotal, refundableTenders(sale.tenders, refundedBefore, sale.invoice?.balance ?? 0));
    } catch (error) {
      if (!(error instanceof RefundExceedsPaymentsError)) throw error;
      throw new ConflictError('refund_exceeds_payments', "The refund is more than the sale's payments can take back (was the invoice changed?).");
    }
  }

  /** Restocked lines back into their warehouse; damaged or spoiled goods in and written off; the rest moves no stock. */
  private async moveStock(principal: Principal, r: SaleReturnRecord, items: ReturnItemRecord[]): Promise<void> {
    const ref = { type: 'return', id: String(r.id), userId: principal.userId, storeId: r.storeId, notes: r.number };
    const lines = (action: string): StockLine[] =>
      items
        .filter((l) => stockAction(l.condition, l.restock) === action)
        .map((l) => ({
          field: `items.${l.lineNo}`,
          itemId: l.itemId,
          warehouseId: l.warehouseId,
          quantity: l.baseQuantity,
          serialNumber: l.serialNumber,
          unitCost: l.baseQuantity ? Math.round(l.cost / l.baseQuantity) : 0,
          notes: l.notes,
        }));
    const restock = lines('restock');
    if (restock.length) await this.ledger.restock(ref, restock, 'return');
    for (const type of ['damage', 'spoilage'] as const) {
      const writeOff = lines(type);
      if (writeOff.length) await this.ledger.writeOffReturned(ref, writeOff, type);
    }
  }

  private async visible(principal: Principal, id: number): Promise<SaleReturnRecord> {
    const r = await this.returns.find(id);
    if (!r || !canAccessStore(principal, r.storeId)) throw new NotFoundError('Return');
    return r;
  }
}
