import { Controller, Get, HttpCode, Inject, Optional, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { ProcessLifecycle, REDIS } from '@pos/platform';
import { Public, RateTier } from '../access/policy.decorators';
import { Health } from '../identity/identity.responses';
import { ApiEnvelope } from '../http/openapi';

/** Liveness + readiness: 200 when the database (and Redis, when configured) answer; else 503. */
@ApiTags('Platform')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly lifecycle: ProcessLifecycle,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  @Get()
  @HttpCode(200)
  @Public()
  @RateTier('none')
  @ApiOperation({ summary: 'Service health (no token)' })
  @ApiEnvelope(Health)
  @ApiEnvelope(Health, { status: 503, description: 'The database or Redis does not answer, or the process is shutting down (status `draining`)' })
  async health(@Res({ passthrough: true }) res: Response) {
    const checks: Record<string, { status: 'up' | 'down'; latency_ms?: number; error?: string }> = {};
    checks.database = await probe(() => this.db.query('SELECT 1'));
    if (this.redis) checks.redis = await probe(() => this.redis!.ping());
    const healthy = Object.values(checks).every((c) => c.status === 'up');
    // Draining (SIGTERM): not ready for new traffic whatever the checks say (http-drain.ts).
    if (!healthy || this.lifecycle.draining) res.status(503);
    return { status: this.lifecycle.draining ? 'draining' : healthy ? 'ok' : 'error', checks, time: new Date().toISOString() };
  }
}

async function probe(fn: () => Promise<unknown>): Promise<{ status: 'up' | 'down'; latency_ms?: number; error?: string }> {
  const started = performance.now();
  try {
    await withTimeout(fn(), 2000);
    return { status: 'up', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { status: 'down', error: 'unreachable' };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e as Error);
      },
    );
  });
}
