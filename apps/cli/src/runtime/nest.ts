import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '@pos/platform';
import { CliModule } from '../cli.module';

/** A Nest application context with the platform modules and only the feature modules a command needs. */
export function createCliContext(config: AppConfig, features: (Type<unknown> | DynamicModule)[]): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(CliModule.register(config, features), { logger: ['error', 'warn'] });
}
