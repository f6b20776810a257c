import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { CatalogModule } from '@pos/catalog';
import { CustomersModule } from '@pos/customers';
import { PricingModule } from '@pos/pricing';
import { SessionsModule } from '@pos/sessions';
import { SalesModule } from '@pos/sales';
import { ReturnsModule } from '@pos/returns';
import { SyncModule } from '@pos/sync';
import { IntegrationModule } from '@pos/integration';
import { DemoModule } from '@pos/demo';
import { WebhooksModule } from '@pos/webhooks';
import { IdentityModule } from '@pos/identity';
import {
  APP_CONFIG,
  AppConfig,
  ConfigModule,
  DatabaseModule,
  LoggingModule,
  MemoryRateLimitStorage,
  MetricsModule,
  QueueModule,
  RATE_LIMIT_STORAGE,
  RedisModule,
  ResilientRateLimitStorage,
  loadConfig,
} from '@pos/platform';
import { AccessGuard } from './access/access.guard';
import { BearerStrategy } from './access/bearer.strategy';
import { AuthFailureLimiter } from './access/auth-failures';
import { RoutePolicyCheck } from './access/route-policy.check';
import { AppExceptionFilter } from './http/exception.filter';
import { AppValidationPipe } from './http/validation';
import { ApiApplicationsController } from './identity/api-applications.controller';
import { AuthController } from './identity/auth.controller';
import { HealthController } from './platform/health.controller';
import { HttpDrain } from './platform/http-drain';
import { AuditLogController } from './platform/audit.controller';
import { StoresController } from './catalog/stores.controller';
import { CategoriesController } from './catalog/categories.controller';
import { ItemsController } from './catalog/items.controller';
import { InventoryController } from './catalog/inventory.controller';
import { ReferenceController } from './pricing/reference.controller';
import { PosProductsController } from './pricing/pos-products.controller';
import { DataStoresController } from './integration/data-stores.controller';
import { DataCatalogController } from './integration/data-catalog.controller';
import { CustomersController } from './customers/customers.controller';
import { PricingController } from './pricing/pricing.controller';
import { RulesInForceController } from './pricing/rules-in-force.controller';
import { ItemPricesController } from './pricing/item-prices.controller';
import { TaxController } from './pricing/tax.controller';
import { DiscountApprovalsController } from './pricing/discount-approvals.controller';
import { PricingRulesController } from './pricing/pricing-rules.controller';
import { BundlesController } from './pricing/bundles.controller';
import { CurrenciesController } from './pricing/currencies.controller';
import { BulkPricesController } from './pricing/bulk-prices.controller';
import { SessionsController } from './sessions/sessions.controller';
import { CheckoutController } from './sales/checkout.controller';
import { SalesController } from './sales/sales.controller';
import { SaleReviewsController } from './sales/sale-reviews.controller';
import { SalesFeedController } from './integration/sales-feed.controller';
import { ReturnsController } from './returns/returns.controller';
import { ReturnsFeedController } from './integration/returns-feed.controller';
import { EventsController } from './integration/events.controller';
import { SyncController } from './sync/sync.controller';
import { WebhooksController } from './webhooks/webhooks.controller';
import { ReportsController, StaffReportsController } from './integration/reports.controller';

/**
 * The HTTP composition root. Per request: the edge middleware (http/edge.ts), then one global
 * guard (rate limit -> authentication -> authorisation), validation, the controller, and the
 * envelope applied by the HTTP adapter as the answer is sent; errors -> AppExceptionFilter.
 * No global interceptor (see bootstrap.ts).
 */
const appModuleMetadata = (config: AppConfig) => ({
  imports: [
    ConfigModule.forRoot(config),
    LoggingModule.forRoot(),
    DatabaseModule.forRoot(config),
    RedisModule,
    QueueModule.forRoot('producer'),
    MetricsModule,
    DiscoveryModule,
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, { token: RATE_LIMIT_STORAGE, optional: true }],
      // Redis counters fail open to per-process ones during an outage (README "Operations"); memory without Redis.
      useFactory: (config: AppConfig, storage?: ResilientRateLimitStorage) => ({
        throttlers: (['login', 'standard', 'pos', 'bulk'] as const).map((name) => ({ name, ttl: 60_000, limit: config.rateLimit[name] })),
        storage: storage ?? new MemoryRateLimitStorage(),
      }),
    }),
    IdentityModule,
    CatalogModule,
    CustomersModule,
    PricingModule,
    SessionsModule,
    SalesModule,
    ReturnsModule,
    SyncModule,
    IntegrationModule,
    DemoModule,
    WebhooksModule,
  ],
  controllers: [
    AuthController,
    ApiApplicationsController,
    HealthController,
    AuditLogController,
    StoresController,
    CategoriesController,
    ItemsController,
    InventoryController,
    ReferenceController,
    PosProductsController,
    CustomersController,
    CurrenciesController,
    // PricingController's routes, split by resource; this order keeps the OpenAPI document's.
    PricingController,
    RulesInForceController,
    ItemPricesController,
    TaxController,
    DiscountApprovalsController,
    PricingRulesController,
    BundlesController,
    BulkPricesController,
    SessionsController,
    CheckoutController,
    // Before SalesController: its `sales/:sale` would take `sales/reviews` (a 404 from the id pipe).
    SaleReviewsController,
    SalesController,
    DataStoresController,
    DataCatalogController,
    SalesFeedController,
    ReturnsController,
    ReturnsFeedController,
    EventsController,
    SyncController,
    WebhooksController,
    ReportsController,
    StaffReportsController,
  ],
  providers: [
    BearerStrategy,
    AuthFailureLimiter,
    RoutePolicyCheck,
    HttpDrain,
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_PIPE, useClass: AppValidationPipe },
    { provide: APP_FILTER, useClass: AppExceptionFilter },
  ],
});

@Module({})
export class AppModule {
  static register(config: AppConfig = loadConfig()): DynamicModule {
    return { module: AppModule, ...appModuleMetadata(config) };
  }
}
