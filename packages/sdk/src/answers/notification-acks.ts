/**
 * Answers to the payment result callback (4.7): 200 or 204 accepts; 500 or a 4xx
 * signals a processing failure and the platform retries later (6). 4.7 lists the
 * failure body as `{code: "SUCCESS", msg}` with `code` a string, so that is what
 * we send; the platform decides by the HTTP status.
 */
import type { Answer } from './answer.js';

export interface NotificationAckBody {
  code: 'SUCCESS';
  msg: string;
}

/** The notification was handled (or had been handled before: repeats are normal, 2.4 rule 2). HTTP 200. */
export function acceptNotification(msg = 'ok'): Answer<NotificationAckBody> {
  return { status: 200, body: { code: 'SUCCESS', msg } };
}

/**
 * The notification could not be handled now; the platform will retry. `status` is
 * 500 (default) or a 4xx. Only for real failures: a repeated notification is accepted.
 */
export function rejectNotification(msg: string, status = 500): Answer<NotificationAckBody> {
  if (!(status === 500 || (Number.isInteger(status) && status >= 400 && status <= 499))) {
    throw new RangeError(`rejectNotification: status must be 500 or a 4xx (4.7), got ${status}`);
  }
  return { status, body: { code: 'SUCCESS', msg } };
}
