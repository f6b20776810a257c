import { Injectable } from '@nestjs/common';
import { Clock, ConflictError, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { ChangeLog, Transactional } from '@pos/platform';
import { CategoryRecord } from './catalog.records';
import { CategoryRepository } from './catalog.ports';

export interface CategoryView {
  id: number;
  name: string;
  slug: string | null;
  description: string | null;
  parent_id: number | null;
  is_active: boolean;
  sort_order: number;
  created_at: string;
  updated_at: string;
  item_count?: number;
  children?: CategoryView[];
}

export interface CategoryInput {
  name?: string;
  parentId?: number | null;
  description?: string | null;
  isActive?: boolean;
  sortOrder?: number;
}

export function categoryView(c: CategoryRecord): CategoryView {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    description: c.description,
    parent_id: c.parentId,
    is_active: c.isActive,
    sort_order: c.sortOrder,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 180) || 'category'
  );
}

/** Categories are chain-wide (not store-scoped). Names are unique among siblings. */
@Injectable()
export class CategoryService {
  constructor(
    private readonly categories: CategoryRepository,
    private readonly changes: ChangeLog,
    private readonly clock: Clock,
  ) {}

  /**
   * With `tree`, the page holds top-level categories, each with its descendants nested in
   * `children`; with `withCounts`, each has `item_count` (its own non-deleted items).
   */
  async list(
    filter: { q?: string; parentId?: number; isActive?: boolean; tree?: boolean; withCounts?: boolean },
    page: PageRequest,
  ): Promise<Page<CategoryView>> {
    const result = await this.categories.list(
      { q: filter.q, isActive: filter.isActive, parentId: filter.tree ? (filter.parentId ?? null) : filter.parentId },
      page,
    );
    if (!filter.tree) {
      const counts = filter.withCounts ? await this.categories.itemCounts(result.items.map((c) => c.id)) : undefined;
      return result.map((c) => ({ ...categoryView(c), ...(counts ? { item_count: counts.get(c.id) ?? 0 } : {}) }));
    }
    const all = (await this.categories.all()).filter((c) => filter.isActive === undefined || c.isActive === filter.isActive);
    const counts = filter.withCounts ? await this.categories.itemCounts(all.map((c) => c.id)) : undefined;
    const byParent = new Map<number | null, CategoryRecord[]>();
    for (const c of all) byParent.set(c.parentId, [...(byParent.get(c.parentId) ?? []), c]);
    const build = (c: CategoryRecord, depth: number): CategoryView => ({
      ...categoryView(c),
      ...(counts ? { item_count: counts.get(c.id) ?? 0 } : {}),
      children: depth > 32 ? [] : (byParent.get(c.id) ?? []).map((child) => build(child, depth + 1)),
    });
    return result.map((c) => build(c, 0));
  }

  async show(id: number): Promise<CategoryView & { parent: CategoryView | null; children: CategoryView[]; item_count: number }> {
    const c = await this.categories.find(id);
    if (!c) throw new NotFoundError('Category');
    const [parent, children, counts] = await Promise.all([
      c.parentId ? this.categories.find(c.parentId) : Promise.resolve(null),
      this.categories.list({ parentId: id }, { page: 1, perPage: 1000 }),
      this.categories.itemCounts([id]),
    ]);
    return { ...categoryView(c), parent: parent ? categoryView(parent) : null, children: children.items.map(categoryView), item_count: counts.get(id) ?? 0 };
  }

  @Transactional()
  async create(input: CategoryInput & { name: string }): Promise<CategoryView> {
    await this.checkParentAndName(input.name, input.parentId ?? null);
    const now = this.clock.now();
    const saved = await this.categories.save({
      name: input.name.trim(),
      slug: slugify(input.name),
      parentId: input.parentId ?? null,
      description: input.description ?? null,
      isActive: input.isActive ?? true,
      sortOrder: input.sortOrder ?? 0,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    return categoryView(saved);
  }

  @Transactional()
  async update(id: number, input: CategoryInput): Promise<CategoryView> {
    const current = await this.categories.find(id);
    if (!current) throw new NotFoundError('Category');
    const parentId = input.parentId === undefined ? current.parentId : input.parentId;
    const name = input.name ?? current.name;
    if (parentId !== null) await this.assertNotDescendant(id, parentId);
    await this.checkParentAndName(name, parentId, id);
    const saved = await this.categories.save({
      ...current,
      name: name.trim(),
      slug: input.name ? slugify(input.name) : current.slug,
      parentId,
      description: input.description === undefined ? current.description : input.description,
      isActive: input.isActive ?? current.isActive,
      sortOrder: input.sortOrder ?? current.sortOrder,
      updatedAt: this.clock.now(),
    });
    return categoryView(saved);
  }

  /** Refused (409) while the category still has subcategories or items. */
  @Transactional()
  async remove(id: number): Promise<void> {
    const current = await this.categories.find(id);
    if (!current) throw new NotFoundError('Category');
    if ((await this.categories.childCount(id)) > 0)
      throw new ConflictError('category_has_children', 'The category has subcategories; move or delete them first.');
    if (((await this.categories.itemCounts([id])).get(id) ?? 0) > 0)
      throw new ConflictError('category_has_items', 'The category still has items; move or delete them first.');
    const now = this.clock.now();
    await this.categories.softDelete(id, now);
    await this.changes.tombstone('category', id);
  }

  private async checkParentAndName(name: string, parentId: number | null, excludeId?: number): Promise<void> {
    if (parentId !== null && !(await this.categories.find(parentId)))
      throw ValidationFailedError.field('parent_id', 'The selected parent category does not exist.');
    if (await this.categories.findSibling(name.trim(), parentId, excludeId))
      throw ValidationFailedError.field('name', 'A category with this name already exists at this level.');
  }

  private async assertNotDescendant(id: number, parentId: number): Promise<void> {
    const all = await this.categories.all();
    const parents = new Map(all.map((c) => [c.id, c.parentId]));
    for (let cur: number | null | undefined = parentId, hops = 0; cur != null && hops < 1000; cur = parents.get(cur), hops++) {
      if (cur === id) throw ValidationFailedError.field('parent_id', 'A category cannot be moved under itself or one of its subcategories.');
    }
  }
}
