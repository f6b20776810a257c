import { defineCommand } from '../cli/command';

export default defineCommand({
  name: 'catalog:reindex-names',
  summary: 'Rebuild the item name search index (after items were imported around the API)',
  flags: {},
  examples: ['catalog:reindex-names'],
  async run(_flags, ctx) {
    const { ALL_FEATURES, ItemService } = await import('../runtime/full');
    return { item_name_words: await (await ctx.nest(ALL_FEATURES)).get(ItemService).rebuildNameIndex() };
  },
});
