import { PageQueryDto } from '../http/page-query.dto';
import { OptionalBoolean, OptionalInt } from '../http/validators';

export class StoreListQuery extends PageQueryDto {
  @OptionalBoolean("Include each store's active warehouses") with_warehouses?: boolean;
  @OptionalBoolean("Include each store's payment methods") with_payment_methods?: boolean;
  @OptionalBoolean('With with_warehouses: also the standalone warehouses serving the store') include_standalone?: boolean;
}

export class StoreWarehousesQuery {
  @OptionalBoolean('Also the standalone warehouses serving this store') include_standalone?: boolean;
}

export class WarehouseListQuery extends PageQueryDto {
  @OptionalInt({ description: 'Warehouses of this store (403 if not yours)' }) store_id?: number;
  @OptionalBoolean('Only standalone warehouses (not owned by a store)') standalone_only?: boolean;
  @OptionalBoolean('With store_id: also standalone warehouses serving it') include_standalone?: boolean;
}
