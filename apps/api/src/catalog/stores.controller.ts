import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { StoreService } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { PageQueryDto, pageRequest } from '../http/page-query.dto';
import { StoreListQuery, StoreWarehousesQuery, WarehouseListQuery } from './stores.dto';
import { standaloneWarehousesView } from './catalog.mapper';
import { PaymentMethod, StandaloneWarehouses, Store, Warehouse, WarehouseDetail } from './catalog.responses';
import { ApiEnvelope } from '../http/openapi';

const LIST = { default: 50, max: 100 };
const STANDALONE_MAX = 500;

@ApiTags('Catalog: stores and warehouses')
@Controller()
export class StoresController {
  constructor(private readonly stores: StoreService) {}

  @Get('stores')
  @RequirePermission('stores.view')
  @ApiOperation({ summary: 'Stores the user can access, optionally with warehouses and payment methods' })
  @ApiEnvelope(Store, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: StoreListQuery) {
    return this.stores.list(p, pageRequest(q, LIST), {
      withWarehouses: q.with_warehouses,
      withPaymentMethods: q.with_payment_methods,
      withStandalone: q.include_standalone,
    });
  }

  @Get('stores/:store')
  @RequirePermission('stores.view')
  @ApiOperation({ summary: 'One store with its warehouses and payment methods' })
  @ApiEnvelope(Store)
  show(@CurrentPrincipal() p: Principal, @Param('store', IdPipe) id: number) {
    return this.stores.show(p, id);
  }

  @Get('stores/:store/warehouses')
  @RequirePermission('warehouses.view')
  @ApiOperation({ summary: 'Active warehouses of a store, optionally the standalone ones serving it' })
  @ApiEnvelope([Warehouse])
  storeWarehouses(@CurrentPrincipal() p: Principal, @Param('store', IdPipe) id: number, @Query() q: StoreWarehousesQuery) {
    return this.stores.storeWarehouses(p, id, q.include_standalone ?? false);
  }

  @Get('warehouses')
  @RequirePermission('warehouses.view')
  @ApiOperation({ summary: 'Active warehouses (store and standalone filters)' })
  @ApiEnvelope(Warehouse, { paginated: true })
  warehouses(@CurrentPrincipal() p: Principal, @Query() q: WarehouseListQuery) {
    return this.stores.warehouses(p, { storeId: q.store_id, standaloneOnly: q.standalone_only, includeServing: q.include_standalone }, pageRequest(q, LIST));
  }

  @Get('warehouses/standalone')
  @RequirePermission('warehouses.view')
  @ApiOperation({
    summary: "Standalone warehouses (not owned by a store) serving the user's stores",
    description:
      'An object, as the contract gives it: `warehouses` (at most 500, by id) and `count`. The paginated list is `GET /warehouses?standalone_only=true`.',
  })
  @ApiEnvelope(StandaloneWarehouses)
  async standalone(@CurrentPrincipal() p: Principal) {
    return standaloneWarehousesView(await this.stores.warehouses(p, { standaloneOnly: true }, { page: 1, perPage: STANDALONE_MAX }));
  }

  @Get('warehouses/:warehouse')
  @RequirePermission('warehouses.view')
  @ApiOperation({ summary: 'One warehouse' })
  @ApiEnvelope(WarehouseDetail)
  warehouse(@CurrentPrincipal() p: Principal, @Param('warehouse', IdPipe) id: number) {
    return this.stores.warehouse(p, id);
  }

  @Get('payment-methods')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "Active payment methods of the user's stores" })
  @ApiEnvelope(PaymentMethod, { paginated: true })
  paymentMethods(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto) {
    return this.stores.paymentMethods(p, pageRequest(q, LIST));
  }

  @Get('payment-methods/:paymentMethod')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'One payment method' })
  @ApiEnvelope(PaymentMethod)
  paymentMethod(@Param('paymentMethod', IdPipe) id: number) {
    return this.stores.paymentMethod(id);
  }
}
