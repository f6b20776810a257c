// class-transformer's metadata registry and default options: plain modules of its package (it
// has no "exports" map) whose declarations live under types/ rather than beside them.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
declare module 'class-transformer/cjs/constants/default-options.constant' {
  export { defaultOptions } from 'class-transformer/types/constants/default-options.constant';
}
