import type { ServerResponse } from 'node:http';
import type { Answer } from '../answers/answer.js';

/** Writes an Answer on a node:http (or Express) response as JSON. */
export function sendAnswer(res: ServerResponse, answer: Answer): void {
  if (answer.body === undefined || answer.status === 204) {
    res.statusCode = answer.status;
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res.statusCode = answer.status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text, 'utf8'));
  res.end(text);
}
