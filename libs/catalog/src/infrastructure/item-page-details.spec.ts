import { detailColumns, detailsOfRows } from './item-page-details';

describe('an item page read with its details', () => {
  const row = (id: number, categoryId: number | null, extra: Record<string, unknown>) => ({ id, category_id: categoryId, ...extra });

  it('reads the JSON columns as pageDetails answers: rows in id order, each category once', () => {
    const details = detailsOfRows([
      row(7, 2, {
        d_barcodes: JSON.stringify([
          { id: 30, barcode: '0042', unit: null },
          { id: 12, barcode: 'CASE-7', unit: 5 },
        ]),
        d_units: JSON.stringify([{ id: 5, name: 'case', factor: 12, price: 1200 }]),
        d_category: 'Beverages',
      }),
      // mysql2 may hand the arrays over parsed, or as a Buffer; MySQL answers NULL for no rows
      row(3, 2, { d_barcodes: [{ id: 4, barcode: '1', unit: null }], d_units: null, d_category: 'Beverages' }),
      row(9, null, { d_barcodes: Buffer.from('[]'), d_units: '[{"id": 1, "name": "pallet", "factor": 480, "price": null}]', d_category: null }),
    ]);
    expect(details).toEqual({
      barcodes: [
        { id: 4, itemId: 3, barcode: '1', itemUnitId: null },
        { id: 12, itemId: 7, barcode: 'CASE-7', itemUnitId: 5 },
        { id: 30, itemId: 7, barcode: '0042', itemUnitId: null },
      ],
      units: [
        { id: 1, itemId: 9, name: 'pallet', factor: 480, price: null },
        { id: 5, itemId: 7, name: 'case', factor: 12, price: 1200 },
      ],
      categories: [{ id: 2, name: 'Beverages' }],
    });
  });

  it('reads objects some MariaDB versions aggregate as strings of JSON', () => {
    const details = detailsOfRows([row(1, null, { d_barcodes: JSON.stringify(['{"id": 2, "barcode": "x", "unit": null}']), d_units: '[]' })]);
    expect(details?.barcodes).toEqual([{ id: 2, itemId: 1, barcode: 'x', itemUnitId: null }]);
  });

  it('answers null, for a read of their own, when a column is not a JSON array of objects', () => {
    // MariaDB cuts JSON_ARRAYAGG at group_concat_max_len
    expect(detailsOfRows([row(1, null, { d_barcodes: '[{"id": 2, "barc', d_units: '[]' })])).toBeNull();
    expect(detailsOfRows([row(1, null, { d_barcodes: '{"id": 2}', d_units: '[]' })])).toBeNull();
    expect(detailsOfRows([row(1, null, { d_barcodes: '[]', d_units: '["{not json"]' })])).toBeNull();
    expect(detailsOfRows([row(1, null, { d_barcodes: '[]', d_units: '[1, 2]' })])).toBeNull();
  });

  it('answers nothing for no rows', () => {
    expect(detailsOfRows([])).toEqual({ barcodes: [], units: [], categories: [] });
  });

  it("aggregates each dialect's way, keyed by the items row's alias", () => {
    expect(detailColumns({ sqlite: true }, 'p')).toContain('json_group_array(json_object(');
    expect(detailColumns({ sqlite: false }, 'it')).toContain('JSON_ARRAYAGG(JSON_OBJECT(');
    expect(detailColumns({ sqlite: false }, 'it')).toMatch(/db\.item_id = it\.id[\s\S]*du\.item_id = it\.id[\s\S]*dc\.id = it\.category_id/);
  });
});
