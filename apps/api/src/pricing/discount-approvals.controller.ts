import { Body, Controller, Get, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { currentStoreId, Principal } from '@pos/identity';
import { CurrencyDecimals, DiscountApprovalService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { ApiEnvelope } from '../http/openapi';
import { DiscountApproveDto } from './pricing.dto';
import { discountApprovalInput } from './pricing.mapper';
import { DiscountApproval, DiscountLimits } from './pricing.responses';

/** A cashier's discount limits, and a manager's approval of one discount beyond them. */
@ApiTags('Pricing')
@Controller('pos')
@RateTier('pos')
export class DiscountApprovalsController {
  constructor(
    private readonly currencies: CurrencyDecimals,
    private readonly approvals: DiscountApprovalService,
  ) {}

  @Get('discount-limits')
  @RateTier('standard')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "The user's discount limits and whether they may approve discounts" })
  @ApiEnvelope(DiscountLimits)
  discountLimits(@CurrentPrincipal() p: Principal) {
    return this.approvals.limits(p);
  }

  @Post('discount/approve')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({
    summary: 'A manager approves one discount for one cart, up to an amount of money: returns a short-lived signed token',
    description:
      'The token covers that discount (type and value) on that line or the cart, for this cashier, store and cart_reference (the checkout idempotency_key), ' +
      'as long as the discount comes to no more than `approved_amount` at checkout (the same token on several lines covers that amount once). ' +
      'A percent approval needs `base_amount`: `approved_amount` is the percent of it. Wrong credentials, an approver who may not approve here, ' +
      'and an approver locked for this cashier (5 failures of this cashier against them in 15 minutes) answer the same 422; ' +
      'a cashier with 10 failed approvals in 15 minutes, or a client address with 30, gets 429 with Retry-After, whoever they name. ' +
      "Approvals count in the POS rate tier of the cashier's token, never against the approver's login.",
  })
  @ApiEnvelope(DiscountApproval)
  async approve(@CurrentPrincipal() p: Principal, @Body() body: DiscountApproveDto, @Ip() ip: string) {
    const input = discountApprovalInput(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p)));
    return this.approvals.approve(p, { ...input, clientAddress: ip });
  }
}
