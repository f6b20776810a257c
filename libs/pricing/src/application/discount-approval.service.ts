import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock, fromMinor, ValidationFailedError } from '@pos/kernel';
import { ApproverService, currentStoreId, hasPermission, Principal } from '@pos/identity';
import { ItemCatalog, StoreContext } from '@pos/catalog';
import { APP_CONFIG, AppConfig, AuditLog } from '@pos/platform';
import { Discount } from '../domain/pricing.types';
import { approvedAmount, discountKey, judgedDiscount, withinLimits } from '../domain/discount-policy';
import { PricingErrors } from '../domain/pricing.errors';
import { CurrencyDecimals } from './currency-decimals';

export interface ApprovalScope {
  storeId: number;
  /** 'cart' or the line's item id. */
  target: 'cart' | { itemId: number };
  discount: Discount;
  /** The cart it may be used for (e.g. the checkout idempotency key). */
  cartReference: string;
  /**
   * The money the discount comes to where it is used (minor units, at the store's shelf prices).
   * Optional for an amount discount (its value); a percent discount without it is never covered.
   */
  amount?: number;
}

/** One place a token is presented: a line's discount or the cart's. */
export interface ApprovalUse {
  token: string | undefined;
  scope: ApprovalScope;
}

interface ApprovalClaims {
  jti: string;
  approver: number;
  cashier: number;
  store: number;
  target: string;
  discount: string;
  cart: string;
  /** The money approved, minor units: the most the discount may come to, over every use of the token in a sale. */
  amount: number;
  exp: number;
}

const TTL_SECONDS = 600;

/**
 * Discounts beyond a cashier's limits need a manager's approval: the manager's email with
 * password or PIN, for one discount on one line (or the cart) of one cart, by this cashier, in
 * this store, up to an amount of money. The result is a short-lived HMAC-signed token (APP_KEY)
 * that checkout verifies against exactly those facts; it can be reused only for that cart
 * (retries of it), and it covers the discount only while it comes to no more than the amount
 * approved: a percent approval names the amount the percent is taken of (`baseAmount`), so 10%
 * approved on a 50.00 cart never covers 10% of a 1,380.00 one under the same key.
 */
@Injectable()
export class DiscountApprovalService {
  private readonly key: Buffer;

  constructor(
    private readonly approvers: ApproverService,
    private readonly stores: StoreContext,
    private readonly items: ItemCatalog,
    private readonly currencies: CurrencyDecimals,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.appKey).update('discount-approval').digest();
  }

  /** The user's limits, the amount in the currency of the store they work in now. */
  async limits(principal: Principal) {
    const decimals = await this.currencies.ofStore(currentStoreId(principal));
    return {
      user_id: principal.userId,
      role: principal.role?.slug ?? null,
      max_discount_percent: principal.discountLimits.maxPercentBp / 100,
      max_discount_amount: fromMinor(principal.discountLimits.maxAmount, decimals),
      can_approve_discounts: hasPermission(principal, 'discounts.approve'),
    };
  }

  /**
   * Wrong credentials, a user who may not approve discounts or does not work in the store, and a
   * locked-out approver all get the same 422 (the endpoint must not tell which, or it becomes a
   * password oracle), and each is audited (`discount.approval_refused`, for loss prevention); a
   * cashier or address past their budget of failures gets 429 from identity. The
   * approver's own limits (percent and amount) are checked only once they are verified.
   */
  async approve(
    cashier: Principal,
    input: {
      approverEmail: string;
      password?: string;
      pin?: string;
      twoFactorCode?: string;
      storeId?: number;
      /** What the discount is taken of, minor units at the store's shelf prices; needed for a percent. */
      baseAmount?: number;
      /** The client address the request came from: its failures are counted too (identity's address budget). */
      clientAddress?: string;
    } & Omit<ApprovalScope, 'storeId' | 'amount'>,
  ) {
    const store = await this.stores.resolve(cashier, input.storeId);
    if (input.target !== 'cart' && !(await this.items.existingIds([input.target.itemId])).has(input.target.itemId)) {
      throw ValidationFailedError.field('item_id', 'The selected item does not exist.');
    }
    const d = input.discount;
    const amount = approvedAmount(d, input.baseAmount);
    if (amount === null) {
      throw ValidationFailedError.field('base_amount', 'Give the amount the percent is taken of: a percent approval covers the money it comes to.');
    }
    if (!input.password && !input.pin)
      throw ValidationFailedError.field('password', "Give the approver's PIN, or their password (with their two-factor code when 2FA is on).");
    const approver = await this.approvers.verifyApprover(
      { email: input.approverEmail, pin: input.pin, password: input.pin ? undefined : input.password, twoFactorCode: input.twoFactorCode },
      { permission: 'discounts.approve', storeId: store.id },
      cashier.userId,
      input.clientAddress,
    );
    if (!approver) {
      // Each refusal took a slot of the cashier's budget, so these entries are as bounded as the attempts.
      await this.audit.record({
        action: 'discount.approval_refused',
        target: { type: 'cart', id: input.cartReference.slice(0, 64) },
        storeId: store.id,
        after: { approver_email: input.approverEmail.trim().toLowerCase().slice(0, 255), cashier_id: cashier.userId, with: input.pin ? 'pin' : 'password' },
      });
      throw PricingErrors.approverNotVerified();
    }
    if (!withinLimits(approver.discountLimits, judgedDiscount(d, amount, input.baseAmount))) throw PricingErrors.approverLimit();
    const exp = Math.floor(this.clock.now().getTime() / 1000) + TTL_SECONDS;
    const claims: ApprovalClaims = {
      jti: randomUUID(),
      approver: approver.userId,
      cashier: cashier.userId,
      store: store.id,
      target: targetKey(input.target),
      discount: discountKey(d),
      cart: input.cartReference,
      amount,
      exp,
    };
    const decimals = await this.currencies.of(store.currencyCode);
    const m = (v: number) => fromMinor(v, decimals);
    const view = {
      approval_token: this.sign(claims),
      expires_at: new Date(exp * 1000).toISOString(),
      approved_by: { id: approver.userId, name: approver.name },
      store_id: store.id,
      scope: input.target === 'cart' ? 'cart' : 'line',
      item_id: input.target === 'cart' ? null : input.target.itemId,
      discount: d.type === 'percent' ? { type: 'percent', value: d.valueBp / 100 } : { type: 'amount', value: m(d.value) },
      base_amount: input.baseAmount === undefined ? null : m(input.baseAmount),
      approved_amount: m(amount),
      cart_reference: input.cartReference,
    };
    // The cashier asked; the entry names the approver who allowed it (the token itself is never logged).
    const { approval_token: _token, ...audited } = view;
    await this.audit.record({
      action: 'discount.approved',
      target: { type: 'cart', id: input.cartReference.slice(0, 64) },
      storeId: store.id,
      after: { ...audited, cashier_id: cashier.userId },
    });
    return view;
  }

  /** The approver's user id when the token matches every fact of this use; otherwise null. */
  verify(token: string, cashier: Principal, scope: ApprovalScope): number | null {
    return this.verifyUses(cashier, [{ token, scope }])[0];
  }

  /**
   * Every use of approval tokens in one sale, in order: the approver's user id for each use whose
   * token matches its facts, null for the others. A token covers its approved amount once per
   * sale: presented on several lines (of the same item), the lines' discounts together must fit
   * in it, and the first lines take it first.
   */
  verifyUses(cashier: Principal, uses: ApprovalUse[]): (number | null)[] {
    const spent = new Map<string, number>();
    const now = this.clock.now().getTime();
    return uses.map(({ token, scope }) => {
      const claims = token ? this.read(token) : null;
      if (!claims || typeof claims.amount !== 'number' || claims.exp * 1000 <= now) return null;
      const amount = scope.amount ?? (scope.discount.type === 'amount' ? scope.discount.value : null);
      const matches =
        claims.cashier === cashier.userId &&
        claims.store === scope.storeId &&
        claims.target === targetKey(scope.target) &&
        claims.discount === discountKey(scope.discount) &&
        claims.cart === scope.cartReference;
      if (!matches || amount === null) return null;
      const total = (spent.get(claims.jti) ?? 0) + amount;
      if (total > claims.amount) return null;
      spent.set(claims.jti, total);
      return claims.approver;
    });
  }

  private sign(claims: ApprovalClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  private read(token: string): ApprovalClaims | null {
    const [body, mac] = token.split('.');
    if (!body || !mac || token.length > 2000) return null;
    const expected = createHmac('sha256', this.key).update(body).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as ApprovalClaims;
    } catch {
      return null;
    }
  }
}

function targetKey(target: ApprovalScope['target']): string {
  return target === 'cart' ? 'cart' : `item:${target.itemId}`;
}
