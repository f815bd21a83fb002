import AjvCompiler from '@fastify/ajv-compiler';
import type { TSchema } from '@sinclair/typebox';
import { integerParams, toIntegers } from './route-params.js';
import { forSerializing } from './serializer-schemas.js';
import { SerializerSelector, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type ValidatorFactory = AjvCompiler.BuildCompilerFromPool;
type Validate = ReturnType<ReturnType<ValidatorFactory>>;

/**
 * The schema compilers: the request validators (Ajv) and response serializers (fast-json-stringify) Fastify would
 * build, but each compiled on first use, and one serializer per distinct response schema instead of one per route
 * and status code.
 *
 * Fastify's defaults compile every schema of every route at start, and a serializer whose schema has an `anyOf` (our
 * error envelope's `data`) carries its own Ajv instance: with nine error statuses on each of about 180 routes that
 * was 1,640 serializers and 1,618 Ajv instances. The same schema under the same shared schemas (one factory call)
 * gives the same bytes whatever the route, so one function serves. Most admin and console routes are never called
 * by an instance that serves games, so they are compiled when first called. Idle RSS 270 -> 135 MB, heap used 118 ->
 * 36 MB (docs/benchmarks.md, "What this round changed"). `schema-compilers.test.ts` compiles every route's schemas,
 * so a schema that cannot compile still fails the tests, not a first request.
 */
export function schemaCompilers(): {
  factory: { buildValidator: ValidatorFactory; buildSerializer: SerializerFactory };
  /** Compiles every schema not compiled yet (tests: every route's schemas compile); answers how many. */
  compileAll(): number;
} {
  const pending: Array<() => unknown> = [];
  return {
    factory: { buildValidator: lazyValidators(pending), buildSerializer: sharedSerializers(pending) },
    compileAll: () => {
      for (const compile of pending) compile();
      return pending.length;
    },
  };
}

function sharedSerializers(pending: Array<() => unknown>): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    // Nullable fields and enumerations without Ajv (serializer-schemas.ts), in the shared schemas and each route's.
    const compile = build(forSerializing(externalSchemas), options);
    const bySchema = new Map<string, Serializer>();
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serialize = bySchema.get(key);
      if (!serialize) {
        const compiled = onFirstUse(pending, () => compile({ ...route, schema: forSerializing(route.schema) }));
        serialize = (data) => compiled()(data);
        bySchema.set(key, serialize);
      }
      return serialize;
    };
  };
}

function lazyValidators(pending: Array<() => unknown>): ValidatorFactory {
  const build = AjvCompiler();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      const compiled = onFirstUse(pending, () => compile(route));
      // Path ids the handler reads as numbers (route-params.ts): converted once they are known to be digits.
      // (Fastify hands { schema, method, url, httpPart }; the compiler's typings call it a schema.)
      const part = route as unknown as { schema: TSchema; httpPart?: string };
      const integers = part.httpPart === 'params' ? integerParams(part.schema) : [];
      // Fastify reads a failed validation's `errors` off the function it was handed.
      const validate = ((data: unknown) => {
        const real = compiled();
        const valid = real(data);
        validate.errors = real.errors;
        if (valid === true && integers.length > 0) toIntegers(data as Record<string, unknown>, integers);
        return valid;
      }) as Validate;
      return validate;
    };
  };
}

/** `make`'s result, made on the first call (or by compileAll through `pending`) and kept. */
function onFirstUse<T>(pending: Array<() => unknown>, make: () => T): () => T {
  let made: T | undefined;
  const get = () => (made ??= make());
  pending.push(get);
  return get;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema not compiled yet (schema-compilers.ts); answers how many there are. */
    compileSchemas(): number;
  }
}
