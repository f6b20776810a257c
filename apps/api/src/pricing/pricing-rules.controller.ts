import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { assertStoreAccess, currentStoreId, Principal } from '@pos/identity';
import { amountToMinor, fromMinor, toMinor } from '@pos/kernel';
import { CurrencyDecimals, PricingRuleService, PricingService, RuleValues, RuleWrite } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { cartRequest } from './cart-request';
import { CreateRuleDto, PricingCartDto, RuleListQuery, UpdateRuleDto } from './pricing.dto';
import { PricingRule, RuleEvaluation } from './pricing.responses';
import { ApiEnvelope, ApiMessage } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { expectedVersions } from '../http/conditional';
import { ApiIfMatch } from '../http/conditional.openapi';
import { PatchToo } from '../http/partial-update';

/** A percent (two decimals) in basis points. */
const bp = (percent: number | undefined) => (percent === undefined ? undefined : toMinor(percent, 2));

/** The kind-specific values as given (the use case picks the one its resulting kind needs); amounts in the catalog currency. */
function ruleValues(b: CreateRuleDto | UpdateRuleDto, decimals: number): RuleValues {
  const minor = (v: number | undefined, field: string) => (v === undefined ? undefined : amountToMinor(v, decimals, field));
  return { percentOffBp: bp(b.percent_off), amountOff: minor(b.amount_off, 'amount_off'), fixedPrice: minor(b.fixed_price, 'fixed_price') };
}

function ruleInput(b: CreateRuleDto | UpdateRuleDto, decimals: number): Partial<RuleWrite> {
  const minor = (v: number | undefined, field: string) => (v === undefined ? undefined : amountToMinor(v, decimals, field));
  const kind = b.kind;
  const conditions: RuleWrite['conditions'] = {};
  if (b.item_ids !== undefined) conditions.itemIds = b.item_ids;
  if (b.category_ids !== undefined) conditions.categoryIds = b.category_ids;
  if (b.customer_group_ids !== undefined) conditions.customerGroupIds = b.customer_group_ids;
  if (b.store_ids !== undefined) conditions.storeIds = b.store_ids;
  if (b.min_quantity !== undefined) conditions.minQuantity = b.min_quantity;
  if (b.min_subtotal !== undefined) conditions.minSubtotal = minor(b.min_subtotal, 'min_subtotal');
  if (b.days_of_week !== undefined) conditions.daysOfWeek = b.days_of_week;
  if (b.start_time !== undefined) conditions.startTime = b.start_time;
  if (b.end_time !== undefined) conditions.endTime = b.end_time;
  if (b.valid_from !== undefined) conditions.validFrom = new Date(b.valid_from);
  if (b.valid_to !== undefined) conditions.validTo = new Date(b.valid_to.length === 10 ? `${b.valid_to}T23:59:59.999Z` : b.valid_to);
  return {
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(b.description !== undefined ? { description: b.description } : {}),
    ...(b.priority !== undefined ? { priority: b.priority } : {}),
    ...(b.is_exclusive !== undefined ? { exclusive: b.is_exclusive } : {}),
    ...(b.is_active !== undefined ? { active: b.is_active } : {}),
    ...(b.tiers !== undefined
      ? {
          tiers: b.tiers.map((t, i) => ({
            minQuantity: t.min_quantity,
            percentOffBp: bp(t.percent_off),
            unitPrice: minor(t.unit_price, `tiers.${i}.unit_price`),
          })),
        }
      : {}),
    ...(b.buy_quantity !== undefined ? { buyQuantity: b.buy_quantity } : {}),
    ...(b.get_quantity !== undefined ? { getQuantity: b.get_quantity } : {}),
    ...(b.get_percent_off !== undefined ? { getPercentOffBp: bp(b.get_percent_off) } : {}),
    ...(Object.keys(conditions).length ? { conditions } : {}),
  };
}

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
  async create(@Body() body: CreateRuleDto) {
    const decimals = await this.currencies.ofCatalog();
    const input = ruleInput(body, decimals);
    return this.rules.create(
      {
        description: null,
        priority: 0,
        exclusive: false,
        active: true,
        value: null,
        tiers: null,
        buyQuantity: null,
        getQuantity: null,
        getPercentOffBp: null,
        conditions: {},
        ...input,
        name: body.name,
        kind: body.kind,
      } as RuleWrite,
      ruleValues(body, decimals),
    );
  }

  @Post('evaluate')
  @HttpCode(200)
  @RateTier('pos')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Which rules apply to a cart and what each does' })
  @ApiEnvelope(RuleEvaluation)
  async evaluate(@CurrentPrincipal() p: Principal, @Body() body: PricingCartDto) {
    const r = await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p))));
    const effects = new Map<number, { id: number; name: string; lines: number[]; saving: number }>();
    r.cart.lines.forEach((line, i) => {
      let previous = line.basePrice;
      for (const step of line.steps) {
        if (step.step === 'pricing_rule' && step.id !== undefined) {
          const e = effects.get(step.id) ?? { id: step.id, name: step.name ?? '', lines: [], saving: 0 };
          e.lines.push(i);
          e.saving += (previous - (step.unitPrice ?? previous)) * line.quantity + (step.amount ?? 0);
          effects.set(step.id, e);
        }
        if (step.unitPrice !== undefined) previous = step.unitPrice;
      }
    });
    return {
      applicable_rules: [...effects.values()].map((e) => ({ id: e.id, name: e.name, lines: e.lines, saving: fromMinor(e.saving, r.decimals) })),
      total: fromMinor(r.cart.total, r.decimals),
    };
  }

  @Get(':pricingRule')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'One rule' })
  @ApiEnvelope(PricingRule)
  show(@Param('pricingRule', IdPipe) id: number) {
    return this.rules.show(id);
  }

  @PatchToo()
  @Put(':pricingRule')
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Update a rule; If-Match or version: only if unchanged since (else 412)' })
  @ApiEnvelope(PricingRule)
  @ApiIfMatch('pricing rule')
  async update(@Param('pricingRule', IdPipe) id: number, @Body() body: UpdateRuleDto, @Headers('if-match') ifMatch?: string) {
    const expected = expectedVersions(ifMatch, body.version, 'pricing rule');
    const decimals = await this.currencies.ofCatalog();
    return this.rules.update(id, ruleInput(body, decimals), ruleValues(body, decimals), expected);
  }

  @Delete(':pricingRule')
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Delete a rule' })
  @ApiMessage()
  async remove(@Param('pricingRule', IdPipe) id: number) {
    await this.rules.remove(id);
    return new MessageResult('Pricing rule deleted.');
  }

  @Post(':pricingRule/toggle')
  @HttpCode(200)
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Switch a rule on or off' })
  @ApiEnvelope(PricingRule)
  toggle(@Param('pricingRule', IdPipe) id: number) {
    return this.rules.toggle(id);
  }
}
