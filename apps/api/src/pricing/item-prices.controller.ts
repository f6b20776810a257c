import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { PricingService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { ApiEnvelope } from '../http/openapi';
import { ItemPriceQuery } from './pricing.dto';
import { applicablePriceBooksView, itemPriceBreakdownView, itemPriceView } from './pricing.mapper';
import { ApplicablePriceBooks, ItemPrice, ItemPriceBreakdown } from './pricing.responses';

/** One item's live price for a store and customer: the price, its steps, and the price books behind it. */
@ApiTags('Pricing')
@Controller('items/:item')
@RateTier('pos')
export class ItemPricesController {
  constructor(private readonly pricing: PricingService) {}

  @Get('price')
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
    return itemPriceView(id, r);
  }

  @Get('price-breakdown')
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
    return itemPriceBreakdownView(id, r);
  }

  @Get('applicable-price-books')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Price books that apply to the item now (store, customer group), and the one chosen' })
  @ApiEnvelope(ApplicablePriceBooks)
  async applicablePriceBooks(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Query() q: ItemPriceQuery) {
    await this.pricing.requireItem(id);
    // Priced for the store and the customer's group the candidates depend on.
    const r = await this.pricing.price(p, { storeId: q.store_id, customerId: q.customer_id, lines: [{ itemId: id, quantity: q.quantity ?? 1 }] });
    return applicablePriceBooksView(id, r, await this.pricing.candidates(id, r.store, r.customerGroupId), q.quantity ?? 1);
  }
}
