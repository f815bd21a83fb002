import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type, type TSchema } from '@sinclair/typebox';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { forSerializing } from './serializer-schemas.js';
import { App } from '../apps/apps.schemas.js';

/** The rewritten schemas write the same bytes as the unions they replace (serializer-schemas.ts). */
const serializerOf = (schema: TSchema) =>
  SerializerSelector()({}, {})({ schema, method: 'GET', url: '/', httpStatus: '200' });

const app = {
  appId: 7,
  clientId: 'c0ffee',
  name: 'Näme "quoted" \u2028',
  region: 'overseas',
  status: 'disabled',
  callbackUrls: { default: 'https://game.example/cb', s1: 'https://game.example/s1' },
  roleQueryUrl: 'https://game.example/roles',
  roleListUrl: null,
  preOrderCheckUrl: null,
  cancellationCallbackUrl: 'https://game.example/cancel',
  partnerUrl: null,
  allowedIps: ['10.0.0.0/8', '::1'],
  unionIdEnabled: true,
  trustTraceparent: false,
  secretRotatedAt: '2026-11-29T10:00:00.000Z',
  previousSecretExpiresAt: null,
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
};

describe('response schemas for serializing', () => {
  it('writes an app as the unions did, null or not, and leaves the schema as it was', () => {
    const before = JSON.stringify(App);
    const plain = serializerOf(App);
    const fast = serializerOf(forSerializing(App));
    assert.equal(JSON.stringify(App), before, 'the schema handed in is not changed');
    for (const value of [
      app,
      { ...app, roleListUrl: 'https://x.example/', previousSecretExpiresAt: '2026-11-30T00:00:00.000Z' },
      { ...app, roleQueryUrl: null, cancellationCallbackUrl: null, region: 'mainland', status: 'active' },
    ]) {
      assert.equal(fast(value), plain(value));
      assert.deepEqual(JSON.parse(fast(value)), value);
    }
  });

  it('takes nullable fields and enumerations out of anyOf, and keeps every other union', () => {
    const schema = Type.Object({
      when: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'kept' }),
      count: Type.Union([Type.Null(), Type.Integer()]),
      nested: Type.Union([Type.Object({ a: Type.String() }), Type.Null()]),
      kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      mixed: Type.Union([Type.Literal('a'), Type.Literal(1)]),
      either: Type.Union([Type.String(), Type.Integer()]),
    });
    const out = forSerializing(schema) as unknown as { properties: Record<string, Record<string, unknown>> };
    assert.deepEqual(out.properties.when, {
      description: 'kept',
      type: 'string',
      format: 'date-time',
      nullable: true,
    });
    assert.equal(out.properties.count!.nullable, true);
    assert.equal(out.properties.nested!.type, 'object');
    assert.deepEqual(out.properties.kind, { type: 'string' });
    assert.ok(Array.isArray(out.properties.mixed!.anyOf), 'literals of two types stay a union');
    assert.ok(Array.isArray(out.properties.either!.anyOf), 'a union of two types stays a union');
    const plain = serializerOf(schema);
    const fast = serializerOf(forSerializing(schema));
    for (const value of [
      { when: null, count: null, nested: null, kind: 'a', mixed: 1, either: 'x' },
      { when: '2026-11-29T10:00:00.000Z', count: 3, nested: { a: 'z' }, kind: 'b', mixed: 'a', either: 2 },
    ])
      assert.equal(fast(value), plain(value));
  });
});
