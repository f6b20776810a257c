import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { fromMinor } from '@pos/kernel';
import { Principal, UserAdminService } from '@pos/identity';
import { StockLedger } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { RollupApplier } from '@pos/integration';
import { atMoment, HeldMoment, RequestContext, withTransactionRetry } from '@pos/platform';
import { PricingRuleService, PricingService } from '@pos/pricing';
import { CheckoutService, SaleService } from '@pos/sales';
import { SessionService } from '@pos/sessions';
import { ReturnWorkflowService } from '@pos/returns';
import { castHistory, HistoryCast, HistoryStore } from './history-cast';
import { between, cashTendered, DayPlan, instantOf, localDay, PlannedSale, planDay, STORE_PROFILES, StoreProfile } from './trading-plan';

/** A sale of the history the manager may take back a few days later. */
interface Returnable {
  saleId: number;
  day: number;
  lines: { saleItemId: number; quantity: number }[];
}

/** Deliveries: on these ISO weekdays (0 Monday) a store's low lines are topped up to PAR before opening. */
const DELIVERY_DAYS: Record<string, number[]> = { DT: [0, 3], AP: [1, 4] };
const PAR: Record<string, number> = { DT: 60, AP: 40 };
const REORDER_AT = 24;
const OPENING_FLOAT = 150;

/**
 * The demo's trading history (DEMO_HISTORY_DAYS, issue 27): every day before today, in both
 * stores, each till opens a cash session, cashiers ring up the day's customers through checkout
 * (the pricing engine prices each cart, promotions and member prices included; cash and card
 * settle as at a till), the manager voids a sale and takes returns on his shifts, deliveries
 * top the shelves up through the stock ledger, and each till closes with its count (now and then
 * a little over or short). All of it through the same use cases as real trading, run at past
 * moments (`atMoment`: the Clock port and the change and audit logs read that time), so the
 * sales, sessions, stock ledger, outbox events and report journal agree as they would in a
 * shop; the report journal is applied after each day. One transaction per store and day.
 * The plan is trading-plan.ts (deterministic per store and date).
 */
@Injectable()
export class DemoHistoryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly users: UserAdminService,
    private readonly customers: CustomerService,
    private readonly rules: PricingRuleService,
    private readonly pricing: PricingService,
    private readonly checkout: CheckoutService,
    private readonly sales: SaleService,
    private readonly sessions: SessionService,
    private readonly returns: ReturnWorkflowService,
    private readonly ledger: StockLedger,
    private readonly applier: RollupApplier,
  ) {}

  /** The first moment of a history of `days` days before `today` (the first store's opening day, midnight). */
  historyStart(days: number, today = new Date()): Date {
    const tz = 'America/New_York';
    return instantOf(localDay(today, tz) - days, 0, tz);
  }

  /** Trades the `days` days before today; the counts of what it did. Expects a demo database with no sales yet. */
  async trade(days: number, today = new Date()): Promise<Record<string, number>> {
    const counts: Record<string, number> = { days, sales: 0, voids: 0, returns: 0, sessions: 0, deliveries: 0 };
    if (days <= 0) return counts;
    const start = this.historyStart(days, today);
    const moment: HeldMoment = { at: start };
    const cast = await atMoment(moment, () =>
      RequestContext.run({ requestId: 'demo-history' }, () =>
        castHistory(this.db, { users: this.users, customers: this.customers, rules: this.rules }, start, days),
      ),
    );
    const returnable = new Map<string, Returnable[]>();
    for (let i = days; i >= 1; i--) {
      for (const store of cast.stores) {
        const profile = STORE_PROFILES.find((p) => p.code === store.code);
        if (!profile) continue;
        const day = localDay(today, store.timeZone) - i;
        const plan = planDay(profile, day, (days - i) / Math.max(1, days - 1), cast.customers.length);
        const done = await atMoment(moment, () =>
          RequestContext.run({ requestId: `demo-history-${store.code}-${day}` }, () =>
            withTransactionRetry(this.txHost, () => this.tradeDay(cast, store, profile, plan, moment, returnable.get(store.code) ?? [])),
          ),
        );
        returnable.set(store.code, [...(returnable.get(store.code) ?? []).filter((r) => r.day > day - 10 && !done.gone.has(r.saleId)), ...done.sold]);
        for (const [k, v] of Object.entries(done.counts)) counts[k] += v;
        // The day's facts into the rollups now, as the periodic applier would have (a backlog of
        // days applied in one batch builds statements SQLite refuses: expression tree too large).
        await this.applier.applyPending();
      }
    }
    return counts;
  }

  private async tradeDay(cast: HistoryCast, store: HistoryStore, profile: StoreProfile, plan: DayPlan, moment: HeldMoment, earlier: Returnable[]) {
    const counts = { sales: 0, voids: 0, returns: 0, sessions: 0, deliveries: 0 };
    const at = (minute: number) => {
      moment.at = instantOf(plan.day, minute, store.timeZone);
      moment.at.setUTCSeconds(between(plan.rand, 0, 59));
    };
    const act = (p: Principal) => RequestContext.setActor({ userId: p.userId, name: p.name });
    const skus = [...cast.items.entries()].filter(([, i]) => !i.serial);
    const levels = await this.ledger.levels(
      skus.map(([, i]) => i.id),
      [store.warehouseId],
    );
    const onHand = new Map(skus.map(([sku, i]) => [sku, levels.find((l) => l.itemId === i.id)?.quantity ?? 0]));

    // A delivery before opening on the store's delivery days: low lines back up to par.
    if (DELIVERY_DAYS[store.code]?.includes((((plan.day + 3) % 7) + 7) % 7)) {
      const low = [...onHand.entries()].filter(([sku, q]) => q <= REORDER_AT && profile.assortment.some(([s]) => s === sku));
      if (low.length) {
        at(profile.opensAt - 45);
        act(cast.manager);
        await this.ledger.adjust(cast.manager, {
          type: 'receive',
          warehouseId: store.warehouseId,
          reference: `PO-${store.code}-${plan.day}`,
          notes: 'Supplier delivery',
          items: low.map(([sku, q]) => ({ itemId: cast.items.get(sku)!.id, quantity: PAR[store.code] - q })),
        });
        for (const [sku] of low) onHand.set(sku, PAR[store.code]);
        counts.deliveries++;
      }
    }

    const sessions: number[] = [];
    for (const [till, key] of plan.tills.entries()) {
      at(profile.opensAt - 10 + till * 3);
      const cashier = cast.staff.get(key)!;
      act(cashier);
      const opened = await this.sessions.open(cashier, { storeId: store.id, openingBalance: OPENING_FLOAT, cashRegisterId: store.id * 10 + till + 1 });
      sessions.push(opened.id);
      counts.sessions++;
    }

    const sold: Returnable[] = [];
    const voided = new Set<number>();
    const returnsAt = Array.from({ length: plan.returns }, () => between(plan.rand, profile.opensAt + 60, profile.closesAt - 60)).sort((a, b) => a - b);
    for (const [index, planned] of plan.sales.entries()) {
      while (returnsAt.length && returnsAt[0] <= planned.minute) {
        at(returnsAt.shift()!);
        counts.returns += await this.takeBack(cast, store, plan, earlier);
      }
      at(planned.minute);
      const sale = await this.ringUp(cast, store, plan, planned, index, onHand);
      if (!sale) continue;
      counts.sales++;
      if (plan.voids.includes(index)) {
        at(planned.minute + 4);
        act(cast.manager);
        await this.sales.void(cast.manager, sale.saleId, 'Customer changed their mind');
        for (const l of planned.lines) onHand.set(l.sku, (onHand.get(l.sku) ?? 0) + l.qty);
        voided.add(sale.saleId);
        counts.voids++;
      } else sold.push(sale);
    }

    for (const [till, id] of sessions.entries()) {
      at(profile.closesAt + 5 + till * 4);
      const cashier = cast.staff.get(plan.tills[till])!;
      act(cashier);
      const summary = await this.sessions.summary(cashier, id);
      const overShort = plan.overShort[till];
      const counted = Math.round(summary.expected_cash * 10 ** store.decimals) + Math.round(overShort * 10 ** (store.decimals - 2));
      await this.sessions.close(cashier, id, {
        closingBalance: fromMinor(counted, store.decimals),
        discrepancyNotes: overShort === 0 ? undefined : overShort > 0 ? 'Drawer over at count' : 'Drawer short at count',
      });
    }
    const gone = new Set(earlier.filter((r) => r.lines.length === 0).map((r) => r.saleId));
    return { counts, sold, gone: new Set([...gone, ...voided]) };
  }

  /** One customer at the till: the cart priced by the engine, then checkout with cash or card. */
  private async ringUp(cast: HistoryCast, store: HistoryStore, plan: DayPlan, planned: PlannedSale, index: number, onHand: Map<string, number>) {
    const cashier = cast.staff.get(plan.tills[planned.till])!;
    RequestContext.setActor({ userId: cashier.userId, name: cashier.name });
    // What is on the shelf: a line beyond the stock left is cut to it (or dropped).
    const lines = planned.lines
      .map((l) => ({ ...l, qty: Math.min(l.qty, onHand.get(l.sku) ?? 0) }))
      .filter((l) => l.qty > 0 && cast.items.has(l.sku) && !cast.items.get(l.sku)!.serial);
    if (!lines.length) return null;
    const customerId = planned.customer === undefined ? undefined : cast.customers[planned.customer];
    const items = lines.map((l) => ({
      itemId: cast.items.get(l.sku)!.id,
      qty: l.qty,
      ...(l.discountBp ? { discount: { type: 'percent' as const, valueBp: l.discountBp }, discountReason: l.reason } : {}),
    }));
    const priced = await this.pricing.price(cashier, {
      storeId: store.id,
      customerId,
      lines: items.map((l) => ({ itemId: l.itemId, quantity: l.qty, discount: l.discount })),
    });
    const total = priced.cart.total;
    const payment =
      planned.tender === 'cash'
        ? { code: 'cash', amount: total, tendered: cashTendered(total, plan.rand) }
        : { code: 'card', amount: total, reference: `AUTH-${store.code}${plan.day}-${index}` };
    const idempotencyKey = `demo-${store.code}-${plan.day}-${index}`;
    const outcome = await this.checkout.checkout(
      cashier,
      { storeId: store.id, idempotencyKey, totalAmount: total, customerId, items, payments: [payment] },
      idempotencyKey,
    );
    for (const l of lines) onHand.set(l.sku, onHand.get(l.sku)! - l.qty);
    const body = outcome.body as { id: number; items: { id: number; quantity: number }[] };
    return { saleId: body.id, day: plan.day, lines: body.items.map((i) => ({ saleItemId: i.id, quantity: i.quantity })) };
  }

  /** The manager takes one unit of an earlier sale back at the desk: refunded, mostly restocked. */
  // Restocked units are not added to the day's shelf count: it only has to stay at or below the ledger's.
  private async takeBack(cast: HistoryCast, store: HistoryStore, plan: DayPlan, earlier: Returnable[]): Promise<number> {
    const candidates = earlier.filter((r) => r.day < plan.day && r.lines.length > 0);
    if (!candidates.length) return 0;
    const sale = candidates[between(plan.rand, 0, candidates.length - 1)];
    const line = sale.lines.shift()!;
    const damaged = plan.rand() < 0.25;
    const condition = damaged ? ('damaged' as const) : plan.rand() < 0.5 ? ('opened' as const) : ('resellable' as const);
    RequestContext.setActor({ userId: cast.manager.userId, name: cast.manager.name });
    const reasonId = cast.returnReasons.length ? cast.returnReasons[between(plan.rand, 0, cast.returnReasons.length - 1)] : undefined;
    const key = `demo-return-${store.code}-${plan.day}-${sale.saleId}-${line.saleItemId}`;
    await this.returns.create(
      cast.manager,
      { saleId: sale.saleId, items: [{ saleItemId: line.saleItemId, quantity: 1, condition }], reasonId, processImmediately: true, idempotencyKey: key },
      key,
    );
    return 1;
  }
}
