import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions } from './data-source';
import { SerializedTransactionalAdapterTypeOrm } from './serialized-adapter';
import { ChangeLog } from './changes/change-log';
import { OutboxEventEntity, TombstoneEntity } from './changes/change.entities';
import { DomainEvents } from '../events/domain-events';
import { AuditLog } from '../audit/audit-log';
import { AuditEntryEntity } from '../audit/audit.entities';
import { IdempotencyKeyEntity } from '../idempotency/idempotency-key.entity';
import { IdempotentRequests } from '../idempotency/idempotent-requests';
import { DatabaseTimeouts } from './db-timeouts';
import { ReadReplicas, replicaAware } from './read-replicas';
import { WorkerLeases } from './worker-leases';

/**
 * TypeORM (one DataSource) + CLS ambient transactions: a use case marked @Transactional()
 * opens one transaction that every repository picks up through TransactionHost.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig): DynamicModule {
    const Adapter = config.db.type === 'sqlite' ? SerializedTransactionalAdapterTypeOrm : TransactionalAdapterTypeOrm;
    return {
      module: DatabaseModule,
      imports: [
        DiscoveryModule,
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.db),
            autoLoadEntities: true,
            migrationsRun: config.db.migrateOnStart,
          }),
        }),
        TypeOrmModule.forFeature([OutboxEventEntity, TombstoneEntity, AuditEntryEntity, IdempotencyKeyEntity]),
        ClsModule.forRoot({
          global: true,
          // No per-request context: a transaction opens its own (TransactionHost.withTransaction runs in
          // cls.run), and outside one repositories use the plain EntityManager. Mounting the middleware
          // would cost every request a context, plugin hooks and proxy resolution it never uses.
          middleware: { mount: false },
          plugins: [
            new ClsPluginTransactional({
              imports: [TypeOrmModule],
              adapter: replicaAware(new Adapter({ dataSourceToken: DataSource })),
              enableTransactionProxy: true,
            }),
          ],
        }),
      ],
      providers: [
        ChangeLog,
        DomainEvents,
        IdempotentRequests,
        AuditLog,
        DatabaseTimeouts,
        ReadReplicas,
        {
          provide: WorkerLeases,
          inject: [APP_CONFIG, DataSource],
          useFactory: (c: AppConfig, db: DataSource) => WorkerLeases.for(c.db.type, db, c.workerLeaseTtlMs),
        },
      ],
      exports: [TypeOrmModule, ChangeLog, DomainEvents, IdempotentRequests, AuditLog, WorkerLeases, ReadReplicas],
    };
  }
}
