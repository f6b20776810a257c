import type { OpenAPIObject } from '@nestjs/swagger';
import { nameOperations, operationName } from './operation-names';

describe('operation names', () => {
  it('takes the map first, then the rules for partner reports, legacy aliases and PATCH', () => {
    expect(operationName('post', '/pos/checkout')).toBe('checkout');
    expect(operationName('GET', '/integration/reports/inventory/stock')).toBe('getIntegrationInventoryStockReport');
    expect(operationName('get', '/integrations/reports/inventory/stock')).toBe('getIntegrationInventoryStockReportLegacyAlias');
    expect(operationName('get', '/integrations/data/items')).toBe('listIntegrationItemsLegacyAlias');
    expect(operationName('patch', '/items/{item}')).toBe('patchItem');
    expect(operationName('patch', '/sessions/{session}')).toBeUndefined();
    expect(operationName('get', '/nowhere')).toBeUndefined();
  });

  it('names an unmapped route from Nest default, and deprecates an alias pointing at its path', () => {
    const doc = {
      paths: {
        '/api/v1/widgets/{widget}': { get: { operationId: 'WidgetsController_show', responses: {} } },
        '/api/v1/integrations/widgets': { get: { operationId: 'WidgetsFeedController_list[1]', description: 'Widgets feed', responses: {} } },
        '/api/v1/integrations/sales': { get: { operationId: 'SalesFeedController_salesFeed[1]', responses: {} } },
      },
    } as unknown as OpenAPIObject;
    nameOperations(doc);
    expect(doc.paths['/api/v1/widgets/{widget}'].get?.operationId).toBe('widgetsShow');
    expect(doc.paths['/api/v1/integrations/widgets'].get).toMatchObject({
      operationId: 'widgetsFeedListLegacyAlias',
      deprecated: true,
      description: 'Deprecated alias of /api/v1/integration/widgets, kept for compatibility; use that path.\n\nWidgets feed',
    });
    expect(doc.paths['/api/v1/integrations/sales'].get).toMatchObject({ operationId: 'listIntegrationSalesLegacyAlias', deprecated: true });
  });
});
