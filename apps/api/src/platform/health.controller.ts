import { Controller, Get, HttpCode, Inject, Optional, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { ProcessLifecycle, REDIS, RedisClient } from '@pos/platform';
import { Public, RateTier } from '../access/policy.decorators';
import { ApiEnvelope } from '../http/openapi';
import { dependencyChecks, migrationsCheck } from './health-checks';
import { Health, Liveness, Readiness } from './platform.responses';

/**
 * GET /health (database: a read of a real table + Redis), /health/live (the process answers: no dependency, so a slow
 * database never gets a healthy replica restarted) and /health/ready (database, Redis when
 * configured, no pending migration, not draining: ProcessLifecycle, set on SIGTERM by
 * http-drain.ts): 503 otherwise.
 */
@ApiTags('Platform')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly lifecycle: ProcessLifecycle,
    @Optional() @Inject(REDIS) private readonly redis?: RedisClient,
  ) {}

  @Get()
  @HttpCode(200)
  @Public()
  @RateTier('none')
  @ApiOperation({ summary: 'Service health (no token)' })
  @ApiEnvelope(Health)
  @ApiEnvelope(Health, { status: 503, description: 'The database or Redis does not answer, or the process is shutting down (status `draining`)' })
  async health(@Res({ passthrough: true }) res: Response) {
    const checks = await dependencyChecks(this.db, this.redis);
    const healthy = Object.values(checks).every((c) => c.status === 'up');
    // Draining (SIGTERM): not ready for new traffic whatever the checks say (http-drain.ts).
    if (!healthy || this.lifecycle.draining) res.status(503);
    return { status: this.lifecycle.draining ? 'draining' : healthy ? 'ok' : 'error', checks, time: new Date().toISOString() };
  }

  @Get('live')
  @HttpCode(200)
  @Public()
  @RateTier('none')
  @ApiOperation({ summary: 'Liveness: the process answers (no dependency is checked; no token)' })
  @ApiEnvelope(Liveness)
  live() {
    return { status: 'ok', uptime_seconds: Math.round(process.uptime()), time: new Date().toISOString() };
  }

  @Get('ready')
  @HttpCode(200)
  @Public()
  @RateTier('none')
  @ApiOperation({ summary: 'Readiness: database, Redis when configured, migrations applied, not shutting down (no token)' })
  @ApiEnvelope(Readiness)
  @ApiEnvelope(Readiness, { status: 503, description: 'Not ready: a dependency does not answer, a migration is pending, or the process is shutting down' })
  async ready(@Res({ passthrough: true }) res: Response) {
    const time = new Date().toISOString();
    if (this.lifecycle.draining) {
      res.status(503);
      return { status: 'shutting_down', checks: {}, time };
    }
    const checks = await dependencyChecks(this.db, this.redis);
    checks.migrations = await migrationsCheck(this.db, checks.database);
    const ready = Object.values(checks).every((c) => c.status === 'up');
    if (!ready) res.status(503);
    return { status: ready ? 'ready' : 'not_ready', checks, time };
  }
}
