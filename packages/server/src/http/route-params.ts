import { Type, type TSchema } from '@sinclair/typebox';

/** Marks a path parameter that the handler receives as a number (a symbol: it never reaches the OpenAPI document). */
const INTEGER_PARAM = Symbol.for('game-platform.integer-param');

/**
 * A numeric id in a path (`/apps/{appId}`): on the wire and in the OpenAPI document the digits string it is, checked
 * as one (at most 15 digits, so every value is an exact double), and handed to the handler as a number. The
 * conversion happens once, right after the params validate (schema-compilers.ts, `integerParams`): no route
 * converts by hand.
 */
export const IdParam = () =>
  Type.Unsafe<number>({ ...Type.String({ pattern: '^[0-9]{1,15}$' }), [INTEGER_PARAM]: true });

/** The params of every `/.../apps/{appId}/...` route. */
export const AppIdParams = Type.Object({ appId: IdParam() });

/** The names of a params schema's IdParam properties (none for a schema without them). */
export function integerParams(schema: TSchema | undefined): string[] {
  const props = (schema as { properties?: Record<string | symbol, Record<symbol, unknown>> } | undefined)?.properties;
  return props ? Object.keys(props).filter((name) => props[name]?.[INTEGER_PARAM] === true) : [];
}

/** After validation: the IdParam values of `params` as numbers, in place (Fastify hands the same object on). */
export function toIntegers(params: Record<string, unknown>, names: string[]): void {
  for (const name of names) params[name] = Number(params[name]);
}
