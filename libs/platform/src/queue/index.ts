export * from './job-definition';
export * from './job-handler.registry';
export * from './in-process.queue';
export * from './bullmq.queue';
export * from './queue.module';
export * from './periodic';
export * from './yield';
