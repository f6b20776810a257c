import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReferenceService } from '@pos/pricing';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { PageQueryDto, pageRequest } from '../http/page-query.dto';
import { PriceBook, PriceBookDetail } from './pricing.responses';
import { ApiEnvelope } from '../http/openapi';

@ApiTags('Catalog: price books')
@Controller()
export class ReferenceController {
  constructor(private readonly reference: ReferenceService) {}

  @Get('price-books')
  @RequirePermission('items.view')
  @ApiOperation({ summary: "Price books that apply to the user's stores" })
  @ApiEnvelope(PriceBook, { paginated: true })
  priceBooks(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto) {
    return this.reference.priceBooks(p, pageRequest(q, { default: 50, max: 100 }));
  }

  @Get('price-books/:priceBook')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'A price book with its entries' })
  @ApiEnvelope(PriceBookDetail)
  priceBook(@CurrentPrincipal() p: Principal, @Param('priceBook', IdPipe) id: number) {
    return this.reference.priceBook(p, id);
  }
}
