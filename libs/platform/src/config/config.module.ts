import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { AmbientClock } from './ambient-clock';
import { AppConfig } from './app-config';

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useClass: AmbientClock },
      ],
      exports: [APP_CONFIG, Clock],
    };
  }
}
