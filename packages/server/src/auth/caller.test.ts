import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callbackHook } from './caller.js';

/** What an auth hook hands Fastify's `done`, for each way its check can end (auth/caller.ts callbackHook). */
async function doneWith(check: () => void | Promise<void>): Promise<unknown[]> {
  return new Promise((resolve) => {
    callbackHook(check)({} as FastifyRequest, {} as FastifyReply, (...args: unknown[]) => resolve(args));
  });
}

describe('callbackHook', () => {
  it('goes on at once when the check decides at once, and after its promise when it waits', async () => {
    let calledSync = false;
    callbackHook(() => {})({} as FastifyRequest, {} as FastifyReply, () => (calledSync = true));
    assert.equal(calledSync, true, 'no tick when nothing waits');
    assert.deepEqual(await doneWith(async () => {}), []);
  });

  it('hands a refusal thrown or rejected to Fastify as the error', async () => {
    const refusal = new Error('refused');
    assert.equal((await doneWith(() => Promise.reject(refusal)))[0], refusal);
    assert.equal(
      (
        await doneWith(() => {
          throw refusal;
        })
      )[0],
      refusal,
    );
  });

  it('never lets a falsy rejection pass for success', async () => {
    for (const thrown of [undefined, null, 0, '']) {
      const [err] = await doneWith(() => Promise.reject(thrown));
      assert.ok(err instanceof Error, `a rejection with ${String(thrown)} is an error`);
      const [syncErr] = await doneWith(() => {
        throw thrown;
      });
      assert.ok(syncErr instanceof Error, `a throw of ${String(thrown)} is an error`);
    }
  });
});
