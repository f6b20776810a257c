import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CategoryService } from '@pos/catalog';
import { RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { CategoryListQuery, CreateCategoryDto, UpdateCategoryDto } from './catalog.dto';
import { categoryCreateInput, categoryInput } from './catalog.mapper';
import { Category, CategoryDetail, CategoryListEntry } from './catalog.responses';
import { ApiEnvelope, ApiErrors, ApiMessage } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { PatchToo } from '../http/partial-update';

@ApiTags('Catalog: categories')
@Controller('categories')
export class CategoriesController {
  constructor(private readonly categories: CategoryService) {}

  @Get()
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Categories (paginated); tree=true nests descendants, with_counts adds item_count' })
  @ApiEnvelope(CategoryListEntry, { paginated: true })
  list(@Query() q: CategoryListQuery) {
    return this.categories.list(
      { q: q.q, parentId: q.parent_id, isActive: q.is_active, tree: q.tree, withCounts: q.with_counts },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Post()
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('catalog.manage')
  @ApiOperation({ summary: 'Create a category (names unique among siblings)' })
  @ApiEnvelope(Category, { status: 201 })
  @ApiErrors(409)
  create(@Body() body: CreateCategoryDto) {
    return this.categories.create(categoryCreateInput(body));
  }

  @Get(':category')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'A category with its parent, children and item count' })
  @ApiEnvelope(CategoryDetail)
  show(@Param('category', IdPipe) id: number) {
    return this.categories.show(id);
  }

  @PatchToo()
  @Put(':category')
  @RequirePermission('catalog.manage')
  @ApiOperation({ summary: 'Update a category (cannot move under itself)' })
  @ApiEnvelope(Category)
  @ApiErrors(409)
  update(@Param('category', IdPipe) id: number, @Body() body: UpdateCategoryDto) {
    return this.categories.update(id, categoryInput(body));
  }

  @Delete(':category')
  @RequirePermission('catalog.manage')
  @ApiOperation({ summary: 'Delete a category (409 while it has subcategories or items)' })
  @ApiMessage()
  @ApiErrors(409)
  async remove(@Param('category', IdPipe) id: number) {
    await this.categories.remove(id);
    return new MessageResult('Category deleted.');
  }
}
