import 'reflect-metadata';
import { AppConfig, ConfigError, loadConfig } from '@pos/platform';
import { Logger } from 'nestjs-pino';
import { createApiApp } from './bootstrap';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(); // fail fast, before anything connects, with every bad variable named
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  forceExitAfter(config.shutdownTimeoutMs);
  const app = await createApiApp(config);
  await app.listen(config.port);
  app.get(Logger).log(`POS API listening on http://localhost:${config.port}/api/v1 (docs: /api/docs)`);
}

/** A hung shutdown must not keep a replica around forever: exit after SHUTDOWN_TIMEOUT_MS. */
function forceExitAfter(ms: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), ms).unref());
  }
}

void main();
