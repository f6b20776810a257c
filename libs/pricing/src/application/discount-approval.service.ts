import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock, fromMinor, ValidationFailedError } from '@pos/kernel';
import { ApproverService, hasPermission, Principal } from '@pos/identity';
import { ItemCatalog, StoreContext } from '@pos/catalog';
import { APP_CONFIG, AppConfig, AuditLog } from '@pos/platform';
import { Discount } from '../domain/pricing.types';
import { discountKey } from '../domain/discount-policy';
import { PricingErrors } from '../domain/pricing.errors';

export interface ApprovalScope {
  storeId: number;
  /** 'cart' or the line's item id. */
  target: 'cart' | { itemId: number };
  discount: Discount;
  /** The cart it may be used for (e.g. the checkout idempotency key). */
  cartReference: string;
}

interface ApprovalClaims {
  jti: string;
  approver: number;
  cashier: number;
  store: number;
  target: string;
  discount: string;
  cart: string;
  exp: number;
}

const TTL_SECONDS = 600;

/**
 * Discounts beyond a cashier's limits need a manager's approval: the manager's email with
 * password or PIN, for one discount on one line (or the cart) of one cart, by this cashier, in
 * this store. The result is a short-lived HMAC-signed token (APP_KEY) that checkout verifies
 * against exactly those facts; it can be reused only for that cart (retries of it).
 */
@Injectable()
export class DiscountApprovalService {
  private readonly key: Buffer;

  constructor(
    private readonly approvers: ApproverService,
    private readonly stores: StoreContext,
    private readonly items: ItemCatalog,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.appKey).update('discount-approval').digest();
  }

  limits(principal: Principal) {
    return {
      user_id: principal.userId,
      role: principal.role?.slug ?? null,
      max_discount_percent: principal.discountLimits.maxPercentBp / 100,
      max_discount_amount: fromMinor(principal.discountLimits.maxAmount),
      can_approve_discounts: hasPermission(principal, 'discounts.approve'),
    };
  }

  /**
   * Wrong credentials, a user who may not approve discounts or does not work in the store, and a
   * locked-out approver all get the same 422 (the endpoint must not tell which, or it becomes a
   * password oracle); the approver's own limit is checked only once they are verified.
   */
  async approve(
    cashier: Principal,
    input: { approverEmail: string; password?: string; pin?: string; twoFactorCode?: string; storeId?: number } & Omit<ApprovalScope, 'storeId'>,
  ) {
    const store = await this.stores.resolve(cashier, input.storeId);
    if (input.target !== 'cart' && !(await this.items.existingIds([input.target.itemId])).has(input.target.itemId)) {
      throw ValidationFailedError.field('item_id', 'The selected item does not exist.');
    }
    if (!input.password && !input.pin)
      throw ValidationFailedError.field('password', "Give the approver's PIN, or their password (with their two-factor code when 2FA is on).");
    const approver = await this.approvers.verifyApprover(
      { email: input.approverEmail, pin: input.pin, password: input.pin ? undefined : input.password, twoFactorCode: input.twoFactorCode },
      { permission: 'discounts.approve', storeId: store.id },
    );
    if (!approver) throw PricingErrors.approverNotVerified();
    const d = input.discount;
    const fits = d.type === 'percent' ? d.valueBp <= approver.discountLimits.maxPercentBp : d.value <= approver.discountLimits.maxAmount;
    if (!fits) throw PricingErrors.approverLimit();
    const exp = Math.floor(this.clock.now().getTime() / 1000) + TTL_SECONDS;
    const claims: ApprovalClaims = {
      jti: randomUUID(),
      approver: approver.userId,
      cashier: cashier.userId,
      store: store.id,
      target: input.target === 'cart' ? 'cart' : `item:${input.target.itemId}`,
      discount: discountKey(d),
      cart: input.cartReference,
      exp,
    };
    const view = {
      approval_token: this.sign(claims),
      expires_at: new Date(exp * 1000).toISOString(),
      approved_by: { id: approver.userId, name: approver.name },
      store_id: store.id,
      scope: input.target === 'cart' ? 'cart' : 'line',
      item_id: input.target === 'cart' ? null : input.target.itemId,
      discount: d.type === 'percent' ? { type: 'percent', value: d.valueBp / 100 } : { type: 'amount', value: fromMinor(d.value) },
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
    const claims = this.read(token);
    if (!claims) return null;
    const target = scope.target === 'cart' ? 'cart' : `item:${scope.target.itemId}`;
    const fresh = claims.exp * 1000 > this.clock.now().getTime();
    const matches =
      claims.cashier === cashier.userId &&
      claims.store === scope.storeId &&
      claims.target === target &&
      claims.discount === discountKey(scope.discount) &&
      claims.cart === scope.cartReference;
    return fresh && matches ? claims.approver : null;
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
