import { OptionalInt, OptionalString, RequiredInt, RequiredMoney, RequiredString } from '../http/validators';
export class OpenSessionDto {
  @RequiredInt() store_id!: number;
  @RequiredMoney({ description: "Cash in the drawer at opening, in the store's currency (JPY: whole yen)" }) opening_balance!: number;
  @OptionalInt() cash_register_id?: number;
  @OptionalString({ max: 1000, multiline: true }) notes?: string;
}
export class CashMovementDto {
  @RequiredString({ in: ['cash_in', 'cash_out'] }) type!: 'cash_in' | 'cash_out';
  @RequiredMoney({ positive: true, description: "In the store's currency (JPY: whole yen)" }) amount!: number;
  @RequiredString({ max: 255 }) reason!: string;
  @OptionalString({ max: 1000, multiline: true }) notes?: string;
  @OptionalString({ max: 128 }) reference?: string;
}
export class CloseSessionDto {
  @RequiredMoney({ description: "Cash counted in the drawer, in the store's currency (JPY: whole yen)" }) closing_balance!: number;
  @OptionalString({ max: 1000, multiline: true }) notes?: string;
  @OptionalString({ max: 1000, multiline: true }) discrepancy_notes?: string;
}

export class StoreQuery {
  @OptionalInt({ description: "Default: the token's store" }) store_id?: number;
}
