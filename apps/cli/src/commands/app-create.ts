import { defineCommand } from '../cli/command';
import { ids, oneOfList, text } from '../cli/values';

export default defineCommand({
  name: 'app:create',
  summary: 'Create an API application user with permissions (then token:issue)',
  description:
    'Validated like POST /api/v1/api-applications: a name of at most 150 characters, permissions from the list the API accepts (an unknown one is refused, naming it), existing store ids.',
  flags: {
    name: { value: 'NAME', required: true, description: 'application name, at most 150 characters' },
    permissions: { value: 'LIST', required: true, description: 'comma-separated permission names, e.g. sales.view,items.view' },
    stores: { value: 'IDS', description: 'comma-separated store ids it may read (default: all stores)' },
  },
  examples: [
    'app:create --name "Accounting export" --permissions sales.view,reports.sales',
    'app:create --name "Warehouse sync" --permissions stores.view,warehouses.view --stores 1,2',
  ],
  async run(flags, ctx) {
    const { ApiApplicationService, IDENTITY_FEATURES, OPERATOR, PERMISSIONS } = await import('../runtime/identity');
    const input = { name: text(flags, 'name', 150), permissions: oneOfList(flags, 'permissions', PERMISSIONS, 'permission'), storeIds: ids(flags, 'stores') };
    return (await ctx.nest(IDENTITY_FEATURES)).get(ApiApplicationService).create(OPERATOR, input);
  },
});
