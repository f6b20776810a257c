import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';

/** @nestjs/swagger's ApiOperation metadata key (its `API_OPERATION`; the constants module is not exported). */
const API_OPERATION = 'swagger/apiOperation';

/** The handler name PATCH is served by, beside the PUT handler `key`. */
export const patchHandlerName = (key: string | symbol): string => `${String(key)}ViaPatch`;

/**
 * `PATCH` beside a `PUT` that is already a partial update (every body field optional, only the
 * fields given change): the same handler, DTO, permission, rate tier, If-Match/version rules and
 * OpenAPI answers, registered a second time under PATCH. Integrators reach for PATCH for partial
 * updates; answering 405 there sends them to the docs for nothing.
 *
 * It copies the PUT handler's metadata (routing, guards, policy, swagger) and its parameter
 * metadata to a twin method on the prototype, so it must be the FIRST (topmost) decorator of the
 * handler: TypeScript applies method decorators bottom-up, so it then sees all the others.
 */
export const PatchToo = (): MethodDecorator => (target, key, descriptor) => {
  const original = descriptor.value as unknown as (...args: unknown[]) => unknown;
  const name = patchHandlerName(key);
  const twin = function (this: unknown, ...args: unknown[]) {
    return original.apply(this, args);
  };
  Object.defineProperty(twin, 'name', { value: name });
  for (const k of Reflect.getOwnMetadataKeys(original)) Reflect.defineMetadata(k, copy(Reflect.getOwnMetadata(k, original)), twin);
  Reflect.defineMetadata(METHOD_METADATA, RequestMethod.PATCH, twin);
  const operation = Reflect.getOwnMetadata(API_OPERATION, original) as { summary?: string } | undefined;
  Reflect.defineMetadata(API_OPERATION, { ...operation, summary: `${operation?.summary ?? 'Update'} (PATCH: the same partial update as PUT)` }, twin);
  // Parameter decorators and design types live on the prototype / the class under the method's name.
  for (const holder of [target, target.constructor]) {
    for (const k of Reflect.getOwnMetadataKeys(holder, key)) Reflect.defineMetadata(k, copy(Reflect.getOwnMetadata(k, holder, key)), holder, name);
  }
  Object.defineProperty(target, name, { value: twin, writable: true, configurable: true, enumerable: false });
  return descriptor;
};

function copy<T>(value: T): T {
  if (Array.isArray(value)) return [...value] as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return { ...value };
  return value;
}
