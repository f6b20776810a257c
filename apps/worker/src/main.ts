import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError, exitGracefullyOn, loadConfig, quietBoot, readEnvFile } from '@pos/platform';
import { serveWorkerMetrics } from './worker-metrics';
import { WorkerModule } from './worker.module';

/** Runs until SIGTERM/SIGINT, then stops fetching jobs and waits for the running ones. */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    readEnvFile(); // .env fills what the environment leaves unset
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  if (!config.redis) {
    process.stderr.write(
      'No Redis is configured (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES): in the embedded mode the API runs its jobs in-process, so there is nothing for a worker to do.\n',
    );
    process.exit(0);
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { bufferLogs: true });
  app.useLogger(quietBoot(app.get(Logger)));
  exitGracefullyOn(app, config.shutdownTimeoutMs);
  await app.init();
  app.get(Logger).log('POS worker consuming jobs');
  await serveWorkerMetrics(app, config);
}

void main();
