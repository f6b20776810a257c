/**
 * The framework's own ceiling for GET /auth/me (issue 29): a minimal Nest application on the
 * Express adapter, as the service is, doing the same work as the bench's bare Express side (the
 * very same `access` function of same-work.js, called from one global guard) and answering the
 * same envelope from one controller method through Nest's own reply. Nothing else: no middleware,
 * interceptor, pipe or filter of the service's, no request log, no async context, no passport.
 * Its throughput against the bare Express side is what Nest's router and guard pipeline alone
 * leave of a bare server's: the most the service could reach on this stack.
 * The bench sends only good tokens: a refused request (access answers it itself) would then meet
 * Nest's 403 for a guard that said no, on a response already sent.
 */
async function nestSameWork({ access, body, path }) {
  const { Controller, Get, Module } = require('@nestjs/common');
  const { APP_GUARD, NestFactory } = require('@nestjs/core');
  const { ExpressAdapter } = require('@nestjs/platform-express');
  const express = require('express');
  class MeController {
    me() {
      return body;
    }
  }
  Controller()(MeController);
  Get(path)(MeController.prototype, 'me', Object.getOwnPropertyDescriptor(MeController.prototype, 'me'));
  const guard = {
    async canActivate(context) {
      const http = context.switchToHttp();
      return (await access(http.getRequest(), http.getResponse())) !== null;
    },
  };
  class BenchModule {}
  Module({ controllers: [MeController], providers: [{ provide: APP_GUARD, useValue: guard }] })(BenchModule);
  const app = await NestFactory.create(BenchModule, new ExpressAdapter(express()), { logger: false, bodyParser: false });
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  await app.listen(0, '127.0.0.1');
  return app.getHttpServer().address().port;
}

module.exports = { nestSameWork };
