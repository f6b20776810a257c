import { lineWarehouse, SaleLineFacts, saleLineProblems } from './sale-lines';

const line = (extra: Partial<SaleLineFacts> = {}): SaleLineFacts => ({
  warehouseId: 1,
  servesStore: true,
  qty: 1,
  factor: 1,
  serialTracked: false,
  ...extra,
});

describe('sale line rules', () => {
  it('takes the line its own warehouse, else the store default, else none', () => {
    expect(lineWarehouse(7, 1)).toBe(7);
    expect(lineWarehouse(undefined, 1)).toBe(1);
    expect(lineWarehouse(undefined, null)).toBeNull();
  });

  it('accepts well-formed lines: nothing to report', () => {
    expect(saleLineProblems([line(), line({ qty: 3, factor: 12, baseQuantity: 36 }), line({ serialTracked: true, serialNumber: 'SN-1' })])).toEqual({});
  });

  it('reports a line with no warehouse for that alone (its unit and serial are not judged)', () => {
    expect(saleLineProblems([line(), line({ warehouseId: null, baseQuantity: 5, serialTracked: true })])).toEqual({
      'items.1.warehouse_id': ['The store has no default warehouse; give warehouse_id.'],
    });
  });

  it('reports a warehouse of another store, and still judges the rest of the line', () => {
    expect(saleLineProblems([line({ servesStore: false, qty: 2, factor: 6, baseQuantity: 6 })])).toEqual({
      'items.0.warehouse_id': ['The selected warehouse does not serve this store.'],
      'items.0.base_quantity': ['The base_quantity must be qty x unit factor (12).'],
    });
  });

  it('checks the base quantity against qty x factor only when the till sent one', () => {
    expect(saleLineProblems([line({ qty: 2, factor: 12 })])).toEqual({});
    expect(saleLineProblems([line({ qty: 2, factor: 12, baseQuantity: 2 })])).toEqual({
      'items.0.base_quantity': ['The base_quantity must be qty x unit factor (24).'],
    });
  });

  it('sells a serial-tracked item with its serial, one base unit per line', () => {
    expect(saleLineProblems([line({ serialTracked: true })])).toEqual({ 'items.0.serial_number': ['A serial number is required for this item.'] });
    expect(saleLineProblems([line({ serialTracked: true, serialNumber: '' })])).toEqual({
      'items.0.serial_number': ['A serial number is required for this item.'],
    });
    expect(saleLineProblems([line({ serialTracked: true, serialNumber: 'SN-1', qty: 2 })])).toEqual({
      'items.0.qty': ['A serial-tracked item is sold one unit per line.'],
    });
    // one pack of 6 is six units: a serial names only one of them
    expect(saleLineProblems([line({ serialTracked: true, serialNumber: 'SN-1', factor: 6 })])).toEqual({
      'items.0.qty': ['A serial-tracked item is sold one unit per line.'],
    });
    expect(saleLineProblems([line({ serialTracked: false, qty: 2 })])).toEqual({});
  });

  it('reports every line by its position', () => {
    const problems = saleLineProblems([line({ servesStore: false }), line(), line({ warehouseId: null })]);
    expect(Object.keys(problems)).toEqual(['items.0.warehouse_id', 'items.2.warehouse_id']);
  });
});
