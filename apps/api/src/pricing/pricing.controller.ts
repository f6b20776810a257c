import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { currentStoreId, Principal } from '@pos/identity';
import { amountToMinor, fromMinor, toMinor, ValidationFailedError } from '@pos/kernel';
import {
  bestPriceBook,
  CurrencyDecimals,
  DiscountApprovalService,
  pricedCartView,
  pricedLineView,
  PricingRuleService,
  PricingService,
  TaxAndCurrencyService,
} from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { cartRequest } from './cart-request';
import { CalculateDto, DiscountApproveDto, ItemPriceQuery, PricingCartDto, PricingValidateDto, TaxInfoQuery, toDiscount } from './pricing.dto';
import {
  ApplicablePriceBooks,
  CartFigures,
  DiscountApproval,
  DiscountLimits,
  ItemPrice,
  ItemPriceBreakdown,
  PriceValidation,
  PricedCart,
  PricedItem,
  PricingRule,
  RulesForItem,
  TaxCalculation,
  TaxInfo,
} from './pricing.responses';
import { ApiEnvelope } from '../http/openapi';

/** Pricing through the engine: carts, single items, validation, tax and discount approval. */
@ApiTags('Pricing')
@Controller()
@RateTier('pos')
export class PricingController {
  constructor(
    private readonly currencies: CurrencyDecimals,
    private readonly pricing: PricingService,
    private readonly rules: PricingRuleService,
    private readonly tax: TaxAndCurrencyService,
    private readonly approvals: DiscountApprovalService,
  ) {}

  @Post('pricing/cart')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Price a cart: every line with its source, rules, bundles, discounts and tax' })
  @ApiEnvelope(PricedCart)
  async cart(@CurrentPrincipal() p: Principal, @Body() body: PricingCartDto) {
    return pricedCartView(await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p)))));
  }

  @Post('pricing/calculate-result')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Price a cart, returning only the figures (no steps)' })
  @ApiEnvelope(CartFigures)
  async calculateResult(@CurrentPrincipal() p: Principal, @Body() body: PricingCartDto) {
    const view = pricedCartView(await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p)))));
    return {
      subtotal: view.subtotal,
      discount_total: view.discount_total,
      tax_total: view.tax_total,
      total: view.total,
      items: view.items.map((l) => ({
        line: l.line,
        item_id: l.item_id,
        quantity: l.quantity,
        unit_price: l.unit_price,
        price_source: l.price_source,
        discount: l.discounts.total,
        tax: l.tax,
        total: l.total,
      })),
    };
  }

  @Post('pricing/calculate')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Price one item (quantity, unit, store, customer)' })
  @ApiEnvelope(PricedItem)
  async calculate(@CurrentPrincipal() p: Principal, @Body() body: CalculateDto) {
    // One item: report problems on this body's own fields (item_id, unit_id), not a cart line's.
    const r = await this.pricing
      .price(p, { storeId: body.store_id, customerId: body.customer_id, lines: [{ itemId: body.item_id, quantity: body.quantity ?? 1, unitId: body.unit_id }] })
      .catch((e: unknown) => {
        if (e instanceof ValidationFailedError)
          throw new ValidationFailedError(
            Object.fromEntries(
              Object.entries(e.fields).map(([k, v]) => [
                k
                  .replace(/^items\.0\.id$/, 'item_id')
                  .replace(/^items\.0\.unit_id$/, 'unit_id')
                  .replace(/^items$/, 'quantity'),
                v,
              ]),
            ),
          );
        throw e;
      });
    const view = pricedCartView(r);
    return { ...view.items[0], currency: view.currency, prices_include_tax: view.prices_include_tax };
  }

  @Post('pricing/validate')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Check a client-priced cart against the server: discrepancies per line' })
  @ApiEnvelope(PriceValidation)
  async validate(@CurrentPrincipal() p: Principal, @Body() body: PricingValidateDto) {
    const decimals = await this.currencies.ofStore(body.store_id ?? currentStoreId(p));
    // Minor units in the store's currency: the client's figures must fit it (422 naming the field), the server's do.
    const client = (v: number, field: string) => amountToMinor(v, decimals, field);
    const minor = (v: number) => toMinor(v, decimals);
    const req = cartRequest(body, decimals);
    // Price without the client's prices: the point is to compare them with the server's.
    const server = pricedCartView(await this.pricing.price(p, { ...req, lines: req.lines.map((l) => ({ ...l, price: undefined })) }));
    const discrepancies: { line: number | null; field: string; client: number; server: number }[] = [];
    body.items.forEach((l, i) => {
      const s = server.items[i];
      if (l.price !== undefined && client(l.price, `items.${i}.price`) !== minor(s.unit_price))
        discrepancies.push({ line: i, field: 'price', client: l.price, server: s.unit_price });
      if (l.total !== undefined && client(l.total, `items.${i}.total`) !== minor(s.total))
        discrepancies.push({ line: i, field: 'total', client: l.total, server: s.total });
    });
    if (body.subtotal !== undefined && client(body.subtotal, 'subtotal') !== minor(server.subtotal))
      discrepancies.push({ line: null, field: 'subtotal', client: body.subtotal, server: server.subtotal });
    if (body.tax_total !== undefined && client(body.tax_total, 'tax_total') !== minor(server.tax_total))
      discrepancies.push({ line: null, field: 'tax_total', client: body.tax_total, server: server.tax_total });
    if (client(body.total_amount, 'total_amount') !== minor(server.total))
      discrepancies.push({ line: null, field: 'total_amount', client: body.total_amount, server: server.total });
    return { valid: discrepancies.length === 0, discrepancies, server };
  }

  @Get('pricing/rules')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Rules in force now (active and in their validity window), highest priority first' })
  @ApiEnvelope([PricingRule])
  async activeRules() {
    return (await this.rules.list({ validity: 'active', isActive: true }, { page: 1, perPage: 1000 })).items;
  }

  @Get('pricing/rules-for-item/:item')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Rules in force that can apply to an item (by item, its category, or all items)' })
  @ApiEnvelope(RulesForItem)
  async rulesForItem(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number) {
    await this.pricing.requireItem(id);
    const r = await this.pricing.price(p, { lines: [{ itemId: id, quantity: 1 }] });
    const item = r.items.get(id)!;
    const all = (await this.rules.list({ validity: 'active', isActive: true }, { page: 1, perPage: 1000 })).items;
    const rules = all.filter((rule) => {
      const c = rule.conditions;
      return (
        (c.item_ids.length === 0 && c.category_ids.length === 0) ||
        c.item_ids.includes(id) ||
        (item.categoryId !== null && c.category_ids.includes(item.categoryId))
      );
    });
    return { item_id: id, rules, applied_now: r.cart.appliedRuleIds };
  }

  @Get('items/:item/price')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'The live unit price of an item for a store (and customer, quantity, unit)' })
  @ApiEnvelope(ItemPrice)
  async itemPrice(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Query() q: ItemPriceQuery) {
    await this.pricing.requireItem(id);
    const r = await this.pricing.price(p, {
      storeId: q.store_id,
      customerId: q.customer_id,
      lines: [{ itemId: id, quantity: q.quantity ?? 1, unitId: q.unit_id }],
    });
    const line = pricedLineView(r.cart.lines[0], r, 0);
    return {
      item_id: id,
      store_id: r.store.id,
      currency: r.store.currencyCode,
      quantity: line.quantity,
      base_price: line.base_price,
      unit_price: line.unit_price,
      price_source: line.price_source,
      prices_include_tax: r.store.pricesIncludeTax,
    };
  }

  @Get('items/:item/price-breakdown')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Every step from base price to final, with its source' })
  @ApiEnvelope(ItemPriceBreakdown)
  async priceBreakdown(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Query() q: ItemPriceQuery) {
    await this.pricing.requireItem(id);
    const r = await this.pricing.price(p, {
      storeId: q.store_id,
      customerId: q.customer_id,
      lines: [{ itemId: id, quantity: q.quantity ?? 1, unitId: q.unit_id }],
    });
    const line = pricedLineView(r.cart.lines[0], r, 0);
    return {
      item_id: id,
      store_id: r.store.id,
      currency: r.store.currencyCode,
      quantity: line.quantity,
      base_price: line.base_price,
      final_unit_price: line.unit_price,
      price_source: line.price_source,
      tax_rate: line.tax_rate,
      tax: line.tax,
      total: line.total,
      steps: line.steps,
    };
  }

  @Get('items/:item/applicable-price-books')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Price books that apply to the item now (store, customer group), and the one chosen' })
  @ApiEnvelope(ApplicablePriceBooks)
  async applicablePriceBooks(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Query() q: ItemPriceQuery) {
    await this.pricing.requireItem(id);
    const r = await this.pricing.price(p, { storeId: q.store_id, customerId: q.customer_id, lines: [{ itemId: id, quantity: q.quantity ?? 1 }] });
    const candidates = await this.pricing.candidates(id, r.store, r.customerGroupId);
    const chosen = bestPriceBook(candidates, q.quantity ?? 1);
    return {
      item_id: id,
      store_id: r.store.id,
      customer_group_id: r.customerGroupId,
      price_books: candidates.map((c) => ({
        id: c.priceBookId,
        name: c.name,
        priority: c.priority,
        price: fromMinor(c.price, r.decimals),
        min_quantity: c.minQuantity,
      })),
      chosen_price_book_id: chosen?.priceBookId ?? null,
    };
  }

  @Post('pos/tax/calculate')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Tax for a cart: per line and per rate' })
  @ApiEnvelope(TaxCalculation)
  async taxCalculate(@CurrentPrincipal() p: Principal, @Body() body: PricingCartDto) {
    return this.tax.taxView(await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p)))));
  }

  @Get('pos/tax/info')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "A store's tax mode, classes and rates, rounding and exemption rules" })
  @ApiEnvelope(TaxInfo)
  taxInfo(@CurrentPrincipal() p: Principal, @Query() q: TaxInfoQuery) {
    return this.tax.taxInfo(p, q.store_id);
  }

  @Get('pos/discount-limits')
  @RateTier('standard')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "The user's discount limits and whether they may approve discounts" })
  @ApiEnvelope(DiscountLimits)
  discountLimits(@CurrentPrincipal() p: Principal) {
    return this.approvals.limits(p);
  }

  @Post('pos/discount/approve')
  @HttpCode(200)
  @RateTier('login')
  @RequirePermission('pos.access')
  @ApiOperation({
    summary: 'A manager approves one discount for one cart, up to an amount of money: returns a short-lived signed token',
    description:
      'The token covers that discount (type and value) on that line or the cart, for this cashier, store and cart_reference (the checkout idempotency_key), ' +
      'as long as the discount comes to no more than `approved_amount` at checkout (the same token on several lines covers that amount once). ' +
      'A percent approval needs `base_amount`: `approved_amount` is the percent of it. Wrong credentials, an approver who may not approve here, ' +
      'and an approver locked for this cashier (5 failures of this cashier against them in 15 minutes) answer the same 422; ' +
      'a cashier with 10 failed approvals in 15 minutes gets 429 with Retry-After, whoever they name.',
  })
  @ApiEnvelope(DiscountApproval)
  async approve(@CurrentPrincipal() p: Principal, @Body() body: DiscountApproveDto) {
    const decimals = await this.currencies.ofStore(body.store_id ?? currentStoreId(p));
    return this.approvals.approve(p, {
      approverEmail: body.approver_email,
      password: body.password,
      pin: body.pin,
      twoFactorCode: body.two_factor_code,
      storeId: body.store_id,
      target: body.item_id === undefined ? 'cart' : { itemId: body.item_id },
      discount: toDiscount(body.discount_type, body.discount_value, 'discount', decimals)!,
      baseAmount: body.base_amount === undefined ? undefined : amountToMinor(body.base_amount, decimals, 'base_amount'),
      cartReference: body.cart_reference,
    });
  }
}
