/** Reading a request body as raw bytes, unchanged (5.3 signs the body exactly as sent). */
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';

/** Default largest accepted callback body. Platform notifications are a few KB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
    this.limit = limit;
  }
}

/**
 * Reads a request stream to its end as one Buffer, bytes untouched. Rejects with
 * BodyTooLargeError as soon as more than `limit` bytes are declared or arrive; the
 * stream is then paused, not destroyed, so an HTTP server can still answer 413.
 */
export function readRawBody(
  stream: Readable & { headers?: Record<string, string | string[] | undefined> },
  limit = DEFAULT_MAX_BODY_BYTES,
): Promise<Buffer> {
  const declared = stream.headers?.['content-length'];
  if (typeof declared === 'string' && /^[0-9]+$/.test(declared) && Number(declared) > limit) {
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer | string): void => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += b.length;
      if (size > limit) {
        cleanup();
        stream.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(b);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('request closed before its body was complete'));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
