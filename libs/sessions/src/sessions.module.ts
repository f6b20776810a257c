import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { PricingModule } from '@pos/pricing';
import { SessionRepository } from './application/session.ports';
import { SessionService } from './application/session.service';
import { CashMovementEntity, SessionEntity } from './infrastructure/session.entities';
import { TypeOrmSessionRepository } from './infrastructure/session.repository';

/**
 * Cashier sessions. Their sales figures come from the sales context through the
 * SessionSalesTotals port (SalesModule binds it), their cash refunds from the returns context
 * through SessionRefundTotals (ReturnsModule binds it); SessionService refuses to boot without them.
 * The decimals of a store's currency come from pricing (CurrencyDecimals).
 */
@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity, CashMovementEntity]), CatalogModule, PricingModule],
  providers: [SessionService, { provide: SessionRepository, useClass: TypeOrmSessionRepository }],
  exports: [SessionService],
})
export class SessionsModule {}
