import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { PricingRuleService, PricingService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { ApiEnvelope } from '../http/openapi';
import { PricingRule, RulesForItem } from './pricing.responses';

/** The rules in force now that the caller sees (their stores' and chain-wide), for the till: all of them, or those whose scope reaches one item. */
@ApiTags('Pricing')
@Controller()
@RateTier('pos')
export class RulesInForceController {
  constructor(
    private readonly pricing: PricingService,
    private readonly rules: PricingRuleService,
  ) {}

  @Get('pricing/rules')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Rules in force now (active and in their validity window), highest priority first' })
  @ApiEnvelope([PricingRule])
  activeRules(@CurrentPrincipal() p: Principal) {
    return this.rules.inForce(p);
  }

  @Get('pricing/rules-for-item/:item')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Rules in force that can apply to an item (by item, its category, or all items)' })
  @ApiEnvelope(RulesForItem)
  async rulesForItem(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number) {
    const item = await this.pricing.requireItem(id);
    // Priced alone in the user's store: which of the rules the engine applies to it right now.
    const r = await this.pricing.price(p, { lines: [{ itemId: id, quantity: 1 }] });
    return { item_id: id, rules: await this.rules.inForceForItem(p, item), applied_now: r.cart.appliedRuleIds };
  }
}
