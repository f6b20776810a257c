import type { CanActivate, INestApplication, NestInterceptor } from '@nestjs/common';

interface GlobalEnhancers {
  getGlobalGuards(): CanActivate[];
  getGlobalInterceptors(): NestInterceptor[];
}

/** A guard or interceptor that is a bare object literal: nestjs-cls's stand-in when it is not mounted there. */
const isPlaceholder = (enhancer: object) => Object.getPrototypeOf(enhancer) === Object.prototype;

/**
 * nestjs-cls registers a global guard and a global interceptor even when it is told to mount its
 * context elsewhere (here: its middleware), as object literals that pass everything through. The
 * interceptor alone costs every request Nest's rxjs interceptor chain and an AsyncResource.bind
 * (two util.deprecate wrappers each on Node 20). They are taken out of the application's global
 * enhancers before the routes are built (app.init), so a route runs the one access guard and no
 * interceptor; the e2e suite checks that stays so (test/platform/lean-pipeline).
 */
export function dropPlaceholderEnhancers(app: INestApplication): void {
  const config = (app as unknown as { config?: GlobalEnhancers }).config;
  if (!config?.getGlobalGuards || !config.getGlobalInterceptors) throw new Error('Nest application config not found: cannot drop the placeholder enhancers');
  for (const list of [config.getGlobalGuards(), config.getGlobalInterceptors()] as object[][]) {
    for (let i = list.length - 1; i >= 0; i--) if (isPlaceholder(list[i])) list.splice(i, 1);
  }
}

/** What the routes will run (for the test that keeps the pipeline lean). */
export function globalEnhancers(app: INestApplication): { guards: string[]; interceptors: string[] } {
  const config = (app as unknown as { config: GlobalEnhancers }).config;
  const name = (e: object) => (isPlaceholder(e) ? 'placeholder' : e.constructor.name);
  return { guards: config.getGlobalGuards().map(name), interceptors: config.getGlobalInterceptors().map(name) };
}
