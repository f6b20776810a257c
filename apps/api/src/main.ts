import 'reflect-metadata';
import { AppConfig, ConfigError, exitGracefullyOn, loadConfig, readEnvFile } from '@pos/platform';
import { Logger } from 'nestjs-pino';
import { createApiApp } from './bootstrap';
import { serveInternalMetrics } from './http/http-metrics';
import { readBootFacts } from './platform/boot-facts';
import { bootSummary } from './platform/boot-summary';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    readEnvFile(); // .env fills what the environment leaves unset
    config = loadConfig(); // fail fast, before anything connects, with every bad variable named
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const app = await createApiApp(config);
  exitGracefullyOn(app, config.shutdownTimeoutMs);
  await app.listen(config.port);
  await serveInternalMetrics(app, config);
  const logger = app.get(Logger);
  for (const line of bootSummary(config, await readBootFacts(app))) logger.log(line, 'Boot');
}

void main();
