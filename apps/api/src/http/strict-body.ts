// ---------------------------------------------------------------------------------------------
// Bodies that move money: unknown fields refused
// ---------------------------------------------------------------------------------------------

const STRICT_BODY = Symbol('STRICT_BODY');
const STRICT_BODIES = new Set<string>();

/**
 * Marks a body that moves money (checkout, returns, payments, sessions' cash, offline uploads):
 * a `currency` sent with a payment must not be silently dropped and the payment recorded in the
 * store's currency. Every body now refuses a field it does not know with a 422 naming it
 * (`AppValidationPipe`, "Unknown field."), so the mark documents intent; the OpenAPI document
 * marks every request body schema `additionalProperties: false` (body-names.ts).
 */
export const StrictBody = (): ClassDecorator => (target) => {
  Reflect.defineMetadata(STRICT_BODY, true, target);
  STRICT_BODIES.add(target.name);
};

/** Whether a DTO (or a class it extends) refuses unknown fields. */
export function isStrictBody(cls: new () => object): boolean {
  return Reflect.getMetadata(STRICT_BODY, cls) === true;
}

/** The names of the strict DTOs (their schemas in the OpenAPI document). */
export function strictBodyNames(): ReadonlySet<string> {
  return STRICT_BODIES;
}
