import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { assertStoreAccess, currentStoreId, Principal } from '@pos/identity';
import { CurrencyDecimals, PricingRuleService, PricingService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { cartRequest, ruleCreateInput, ruleEvaluationView, ruleInput, ruleValues } from './pricing.mapper';
import { CreateRuleDto, PricingCartDto, RuleListQuery, UpdateRuleDto } from './pricing.dto';
import { PricingRule, RuleEvaluation } from './pricing.responses';
import { ApiEnvelope, ApiMessage } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { expectedVersions } from '../http/conditional';
import { ApiIfMatch } from '../http/conditional.openapi';
import { PatchToo } from '../http/partial-update';

@ApiTags('Pricing rules')
@Controller('pricing-rules')
export class PricingRulesController {
  constructor(
    private readonly currencies: CurrencyDecimals,
    private readonly rules: PricingRuleService,
    private readonly pricing: PricingService,
  ) {}

  @Get()
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Pricing rules (store, validity active|upcoming|expired, item, category filters)' })
  @ApiEnvelope(PricingRule, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: RuleListQuery) {
    if (q.store_id !== undefined) assertStoreAccess(p, q.store_id);
    return this.rules.list(
      p,
      { storeId: q.store_id, validity: q.validity, itemId: q.item_id, categoryId: q.category_id, isActive: q.is_active },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Post()
  @IdempotentCreate()
  @HttpCode(200)
  @RequirePermission('pricing.manage')
  @ApiOperation({
    summary: 'Create a rule: percent_off, amount_off, fixed_price, quantity_tiers or buy_x_get_y',
    description: 'Answers 200, as the contract gives it (201 is only for the creates it names: categories, customers, bundles).',
  })
  @ApiEnvelope(PricingRule)
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateRuleDto) {
    const decimals = await this.currencies.ofCatalog();
    return this.rules.create(p, ruleCreateInput(body, decimals), ruleValues(body, decimals));
  }

  @Post('evaluate')
  @HttpCode(200)
  @RateTier('pos')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Which rules apply to a cart and what each does' })
  @ApiEnvelope(RuleEvaluation)
  async evaluate(@CurrentPrincipal() p: Principal, @Body() body: PricingCartDto) {
    return ruleEvaluationView(await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p)))));
  }

  @Get(':pricingRule')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'One rule' })
  @ApiEnvelope(PricingRule)
  show(@CurrentPrincipal() p: Principal, @Param('pricingRule', IdPipe) id: number) {
    return this.rules.show(p, id);
  }

  @PatchToo()
  @Put(':pricingRule')
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Update a rule; If-Match or version: only if unchanged since (else 412)' })
  @ApiEnvelope(PricingRule)
  @ApiIfMatch('pricing rule')
  async update(@CurrentPrincipal() p: Principal, @Param('pricingRule', IdPipe) id: number, @Body() body: UpdateRuleDto, @Headers('if-match') ifMatch?: string) {
    const expected = expectedVersions(ifMatch, body.version, 'pricing rule');
    const decimals = await this.currencies.ofCatalog();
    return this.rules.update(p, id, ruleInput(body, decimals), ruleValues(body, decimals), expected);
  }

  @Delete(':pricingRule')
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Delete a rule' })
  @ApiMessage()
  async remove(@CurrentPrincipal() p: Principal, @Param('pricingRule', IdPipe) id: number) {
    await this.rules.remove(p, id);
    return new MessageResult('Pricing rule deleted.');
  }

  @Post(':pricingRule/toggle')
  @HttpCode(200)
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Switch a rule on or off' })
  @ApiEnvelope(PricingRule)
  toggle(@CurrentPrincipal() p: Principal, @Param('pricingRule', IdPipe) id: number) {
    return this.rules.toggle(p, id);
  }
}
