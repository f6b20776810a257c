import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { currentStoreId, Principal } from '@pos/identity';
import { CurrencyDecimals, pricedCartView, PricingService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { ApiEnvelope } from '../http/openapi';
import { CalculateDto, PricingCartDto, PricingValidateDto } from './pricing.dto';
import { asItemFieldError, cartFiguresView, cartRequest, cartValidationView, pricedItemView } from './pricing.mapper';
import { CartFigures, PriceValidation, PricedCart, PricedItem } from './pricing.responses';

/**
 * Carts through the engine: a cart priced in full or as figures, one item, and a client-priced
 * cart checked against the server. Items' prices, rules in force, tax and discount approval have
 * their own controllers beside this one.
 */
@ApiTags('Pricing')
@Controller()
@RateTier('pos')
export class PricingController {
  constructor(
    private readonly currencies: CurrencyDecimals,
    private readonly pricing: PricingService,
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
    const r = await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p))));
    return cartFiguresView(pricedCartView(r));
  }

  @Post('pricing/calculate')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Price one item (quantity, unit, store, customer)' })
  @ApiEnvelope(PricedItem)
  async calculate(@CurrentPrincipal() p: Principal, @Body() body: CalculateDto) {
    const r = await this.pricing
      .price(p, { storeId: body.store_id, customerId: body.customer_id, lines: [{ itemId: body.item_id, quantity: body.quantity ?? 1, unitId: body.unit_id }] })
      .catch((e: unknown) => {
        throw asItemFieldError(e);
      });
    return pricedItemView(r);
  }

  @Post('pricing/validate')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Check a client-priced cart against the server: discrepancies per line' })
  @ApiEnvelope(PriceValidation)
  async validate(@CurrentPrincipal() p: Principal, @Body() body: PricingValidateDto) {
    const decimals = await this.currencies.ofStore(body.store_id ?? currentStoreId(p));
    const req = cartRequest(body, decimals);
    // Priced without the client's prices: the point is to compare them with the server's.
    const server = await this.pricing.price(p, { ...req, lines: req.lines.map((l) => ({ ...l, price: undefined })) });
    return cartValidationView(body, pricedCartView(server), decimals);
  }
}
