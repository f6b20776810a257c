import { defineEvent } from '@pos/platform';

export interface PricesBulkUpdatedPayload {
  job_id: number;
  total: number;
  items_updated: number;
  price_book_entries_updated: number;
  item_ids: number[];
}

export const PricesBulkUpdated = defineEvent<PricesBulkUpdatedPayload>('prices.bulk_updated');
