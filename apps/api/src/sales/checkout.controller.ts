import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Principal } from '@pos/identity';
import { amountToMinor } from '@pos/kernel';
import { requestFingerprint } from '@pos/platform';
import { CurrencyDecimals } from '@pos/pricing';
import { CheckoutInput, CheckoutService } from '@pos/sales';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { toDiscount } from '../pricing/pricing.mapper';
import { CheckoutDto, CheckoutValidateDto } from './sales.dto';
import { CheckoutValidation, SaleDetail } from './sales.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { WriteDeadline } from '../http/write-deadline';
import { IdempotentCreate } from '../http/idempotency.decorator';

function discountOf(type: string | undefined, value: number | undefined, amount: number | undefined, field: string, decimals: number) {
  if (!type && amount !== undefined && amount > 0) return { type: 'amount' as const, value: amountToMinor(amount, decimals, `${field}_amount`) };
  return toDiscount(type, value, field, decimals);
}

/**
 * The checkout body (or validate's, where the total, the tenders and the key are optional) to the
 * use case's input: JSON amounts in the store's currency (its `decimals`) to minor units.
 */
export function checkoutInput(b: CheckoutDto | CheckoutValidateDto, decimals: number): CheckoutInput {
  const money = (v: number, field: string) => amountToMinor(v, decimals, field);
  return {
    storeId: b.store_id,
    idempotencyKey: b.idempotency_key ?? '', // validate writes nothing: no key needed
    totalAmount: b.total_amount === undefined ? undefined : money(b.total_amount, 'total_amount'),
    customerId: b.customer_id,
    reference: b.reference,
    taxExempt: b.tax_exempt,
    taxExemptReason: b.tax_exempt_reason,
    offlineCreatedAt: b.offline_created_at ? new Date(b.offline_created_at) : undefined,
    cartDiscount: discountOf(b.cart_discount_type, b.cart_discount_value, b.cart_discount_amount, 'cart_discount', decimals),
    cartDiscountReason: b.cart_discount_reason,
    cartDiscountApprovalToken: b.cart_discount_approval_token,
    legacyPaymentMethod: b.payment_method,
    legacyPaymentMethodId: b.payment_method_id,
    items: b.items.map((l, i) => ({
      itemId: l.id,
      qty: l.qty,
      unitId: l.unit_id,
      warehouseId: l.warehouse_id,
      serialNumber: l.serial_number,
      price: l.price === undefined ? undefined : money(l.price, `items.${i}.price`),
      discount: discountOf(l.discount_type, l.discount_value, l.discount_amount, `items.${i}.discount`, decimals),
      discountReason: l.discount_reason,
      discountApprovalToken: l.discount_approval_token,
      baseQuantity: l.base_quantity,
    })),
    payments: (b.payments ?? []).map((p, i) => ({
      code: p.payment_method_code,
      methodId: p.payment_method_id,
      amount: money(p.amount, `payments.${i}.amount`),
      tendered: p.tendered === undefined ? undefined : money(p.tendered, `payments.${i}.tendered`),
      change: p.change === undefined ? undefined : money(p.change, `payments.${i}.change`),
      reference: p.reference,
    })),
  };
}

@ApiTags('POS: checkout')
@Controller('pos/checkout')
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly currencies: CurrencyDecimals,
  ) {}

  @Post()
  @IdempotentCreate({ bodyKey: 'idempotency_key' })
  @HttpCode(201)
  @RequirePermission('sales.create')
  @WriteDeadline()
  @ApiOperation({
    summary: 'Complete a sale (one transaction): price, discounts and approvals, tax, payments, stock, receipt, invoice, events',
    description:
      'Idempotent on idempotency_key: the same body replays the original response (header Idempotent-Replayed: true); another body is 422; while the first is running, 409 with Retry-After.',
  })
  @ApiEnvelope(SaleDetail, { status: 201, description: 'The sale (also on a replay, with Idempotent-Replayed: true)' })
  @ApiErrors(
    [400, 'Also: total_amount differs from the server total (client_total, server_total)'],
    [403, 'A discount beyond your limits without a valid approval token, or another store'],
    [409, 'No open session, not enough stock, or the same idempotency_key still running (Retry-After)'],
  )
  async create(@CurrentPrincipal() p: Principal, @Body() body: CheckoutDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const outcome = await this.checkout.checkout(p, checkoutInput(body, await this.currencies.ofStore(body.store_id)), requestFingerprint(req.body));
    res.status(outcome.status);
    if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return outcome.body;
  }

  @Post('validate')
  @HttpCode(200)
  @RequirePermission('sales.create')
  @ApiOperation({
    summary: 'Every checkout check and the priced cart, without writing anything',
    description:
      'Send the cart as for checkout; total_amount, payments and idempotency_key are optional. The answer is the priced cart ' +
      "(lines with unit price, discounts, tax and totals; the cart's subtotal, discount_total, tax_total and total in the currency's decimals, " +
      'the shape of POST /pricing/cart) so a terminal can show the total before tendering. A total_amount that differs from the server total is ' +
      '400 with client_total and server_total, as at checkout. With tenders, they are settled as checkout settles them (change, balance_due); ' +
      'without, payments is empty and balance_due is the total.',
  })
  @ApiEnvelope(CheckoutValidation)
  @ApiErrors([400, 'A cart that cannot be sold as it stands, or a total_amount differing from the server total (client_total, server_total)'], 403, 409)
  async validate(@CurrentPrincipal() p: Principal, @Body() body: CheckoutValidateDto) {
    return this.checkout.validate(p, checkoutInput(body, await this.currencies.ofStore(body.store_id)));
  }
}
