import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PosProductService } from '@pos/pricing';
import { ReadOnReplica } from '@pos/platform';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { PosProductQuery, PosProductsQuery, PosSearchQuery } from './pricing.dto';
import { PosProduct } from '../catalog/catalog.responses';
import { ApiEnvelope } from '../http/openapi';

@ApiTags('POS: products')
@Controller('pos/products')
@RateTier('pos')
@ReadOnReplica() // lookups read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class PosProductsController {
  constructor(private readonly products: PosProductService) {}

  @Get()
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Sellable items with live price and stock for the store and warehouse (paginated)' })
  @ApiEnvelope(PosProduct, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: PosProductsQuery) {
    return this.products.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, categoryId: q.category_id, q: q.q?.trim() || undefined },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Get('search')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Search by name, SKU or barcode; an exact barcode or SKU match comes first' })
  @ApiEnvelope([PosProduct])
  search(@CurrentPrincipal() p: Principal, @Query() q: PosSearchQuery) {
    return this.products.search(p, { q: q.q, storeId: q.store_id, warehouseId: q.warehouse_id, categoryId: q.category_id, limit: q.limit ?? 20 });
  }

  @Get(':item')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'One item with live price and stock' })
  @ApiEnvelope(PosProduct)
  show(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Query() q: PosProductQuery) {
    return this.products.show(p, id, { storeId: q.store_id, warehouseId: q.warehouse_id });
  }
}
