import { SerializerSelector, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * Response serializers: one per distinct response schema, not one per route and status code.
 *
 * Fastify's default builds a fast-json-stringify function for every status of every route, and every one whose
 * schema has an `anyOf` (our error envelope's `data`) carries its own Ajv instance. With nine error statuses on
 * each of about 180 routes that was 1,640 serializers and 1,618 Ajv instances, about 70 MB of the idle heap.
 * The same schema (under the same shared schemas, i.e. within one factory call) gives the same bytes whatever the
 * route, so the compiled function is shared. Idle heap 103 MB -> see docs/benchmarks.md ("Memory").
 */
export function sharedSerializers(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const bySchema = new Map<string, Serializer>();
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serialize = bySchema.get(key);
      if (!serialize) {
        serialize = compile(route);
        bySchema.set(key, serialize);
      }
      return serialize;
    };
  };
}
