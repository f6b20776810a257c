import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionRepository, SessionSalesTotals } from './application/session.ports';
import { SessionService } from './application/session.service';
import { CashMovementEntity, SessionEntity } from './infrastructure/session.entities';
import { NoSalesYetTotals, TypeOrmSessionRepository } from './infrastructure/session.repository';

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity, CashMovementEntity])],
  providers: [SessionService, { provide: SessionRepository, useClass: TypeOrmSessionRepository }, { provide: SessionSalesTotals, useClass: NoSalesYetTotals }],
  exports: [SessionService],
})
export class SessionsModule {}
