import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError, Metrics, exitGracefullyOn, loadConfig, startMetricsServer } from '@pos/platform';
import { WorkerModule } from './worker.module';

/** Runs until SIGTERM/SIGINT, then stops fetching jobs and waits for the running ones. */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  if (!config.redisUrl) {
    process.stderr.write('REDIS_URL is not set: in the embedded mode the API runs its jobs in-process, so there is nothing for a worker to do.\n');
    process.exit(0);
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  exitGracefullyOn(app, config.shutdownTimeoutMs);
  await app.init();
  app.get(Logger).log('POS worker consuming jobs');
  await serveMetrics(app.get(Metrics), config, app.get(Logger));
}

/** The worker's own /metrics (no Nest HTTP); a port already taken is logged, never fatal: the jobs matter more. */
async function serveMetrics(metrics: Metrics, config: AppConfig, logger: Logger): Promise<void> {
  if (!config.metrics.enabled || config.metrics.workerPort === 0) return;
  try {
    const server = await startMetricsServer(metrics, config.metrics.workerPort, config.metrics.token);
    server.unref();
    logger.log(`worker metrics on http://localhost:${config.metrics.workerPort}/metrics`);
  } catch (error) {
    logger.error(`worker metrics not served on port ${config.metrics.workerPort}: ${(error as Error).message}`);
  }
}

void main();
