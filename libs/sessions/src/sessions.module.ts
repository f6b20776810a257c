import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { SessionRepository } from './application/session.ports';
import { SessionService } from './application/session.service';
import { CashMovementEntity, SessionEntity } from './infrastructure/session.entities';
import { TypeOrmSessionRepository } from './infrastructure/session.repository';

/**
 * Cashier sessions. Their sales figures come from the sales context through the
 * SessionSalesTotals port, which SalesModule binds; SessionService refuses to boot without it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity, CashMovementEntity]), CatalogModule],
  providers: [SessionService, { provide: SessionRepository, useClass: TypeOrmSessionRepository }],
  exports: [SessionService],
})
export class SessionsModule {}
