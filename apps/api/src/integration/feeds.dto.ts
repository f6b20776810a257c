import { InventoryQuery, ItemListQuery } from '../catalog/catalog.dto';
import { StoreListQuery, WarehouseListQuery } from '../catalog/stores.dto';
import { IntegrationCustomerQuery } from '../customers/customers.dto';
import { ReturnFeedQuery } from '../returns/returns.dto';
import { InvoiceListQuery, SaleListQuery } from '../sales/sales.dto';
import { ChangeCursor, ChangeModeQuery, UpdatedSince } from './change-mode';

/** The feeds' queries: each list's filters plus change mode (updated_since | cursor). */
export class SalesFeedQuery extends SaleListQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class InvoicesFeedQuery extends InvoiceListQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class ReturnsFeedQuery extends ReturnFeedQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class CustomersFeedQuery extends IntegrationCustomerQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class ItemsFeedQuery extends ItemListQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class InventoryFeedQuery extends InventoryQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class StoresFeedQuery extends StoreListQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}

export class WarehousesFeedQuery extends WarehouseListQuery implements ChangeModeQuery {
  @UpdatedSince() updated_since?: string;
  @ChangeCursor() cursor?: string;
}
