import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Principal } from '@pos/identity';
import { requestFingerprint } from '@pos/platform';
import { CurrencyDecimals } from '@pos/pricing';
import { CheckoutService } from '@pos/sales';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { CheckoutDto, CheckoutValidateDto } from './sales.dto';
import { checkoutInput } from './sales.mapper';
import { CheckoutValidation, SaleDetail } from './sales.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { WriteDeadline } from '../http/write-deadline';
import { IdempotentCreate } from '../http/idempotency.decorator';

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
