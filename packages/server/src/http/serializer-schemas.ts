/**
 * Response schemas as fast-json-stringify is handed them (schema-compilers.ts): the same bytes out, less work.
 *
 * fast-json-stringify writes an `anyOf` by running Ajv on the value against each branch until one matches: our
 * nullable fields (`Type.Union([X, Type.Null()])`) and enumerations (`Type.Union([Type.Literal('a'), ...])`) each
 * cost a validation per answer. The admin read of an app has eight (6 validator calls, ~1.1 KB of 22.7 KB allocated
 * per request). Written for serializing only (the OpenAPI document and the validators keep the unions):
 * - `anyOf: [X, null]` with X a plain schema (no combinator, no $ref) becomes X with `nullable: true`, which
 *   fast-json-stringify writes with one `=== null` test;
 * - `anyOf` of literals of one type (`{ const, type }` each) becomes that type: the value is written as it is. Only
 *   a value outside the enumeration reads differently (written, where the `anyOf` threw), and such a value cannot
 *   come from typed code: TypeScript holds every answer to the schema's static type.
 * Anything else is kept as it is.
 */
type Schema = Record<string, unknown>;

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if'] as const;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPlain = (s: Schema) => typeof s.type === 'string' && COMBINATORS.every((k) => !(k in s));
const isNull = (s: Schema) => s.type === 'null' && Object.keys(s).length === 1;
const isLiteral = (s: Schema) => 'const' in s && typeof s.type === 'string' && isPlain(s);

function simplifiedUnion(schema: Schema): Schema | null {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || !branches.every(isSchema)) return null;
  const { anyOf: _, ...siblings } = schema;
  if (branches.length === 2) {
    const nulls = branches.filter(isNull);
    const other = branches.find((b) => !isNull(b));
    if (nulls.length === 1 && other && isPlain(other)) return { ...siblings, ...other, nullable: true };
  }
  if (branches.length > 0 && branches.every(isLiteral) && branches.every((b) => b.type === branches[0]!.type))
    return { ...siblings, type: branches[0]!.type };
  return null;
}

/** `schema` rewritten for fast-json-stringify, all the way down; a new object, the input is left as it is. */
export function forSerializing<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s: unknown) => forSerializing(s)) as T;
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = forSerializing(value);
  return (simplifiedUnion(out) ?? out) as T;
}
