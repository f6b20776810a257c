import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionRepository, SessionSalesTotals } from './application/session.ports';
import { SessionService } from './application/session.service';
import { CashMovementEntity, SessionEntity } from './infrastructure/session.entities';
import { SessionSalesTotalsRegistry, TypeOrmSessionRepository } from './infrastructure/session.repository';

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity, CashMovementEntity])],
  providers: [
    SessionService,
    { provide: SessionRepository, useClass: TypeOrmSessionRepository },
    SessionSalesTotalsRegistry,
    { provide: SessionSalesTotals, useExisting: SessionSalesTotalsRegistry },
  ],
  exports: [SessionService, SessionSalesTotalsRegistry],
})
export class SessionsModule {}
