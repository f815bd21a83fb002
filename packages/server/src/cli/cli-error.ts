import { CommanderError } from 'commander';
import { ConfigError } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { ErrorCodes, type ErrorReason } from '../errors/codes.js';

/** What a failed command prints: the admin API's error envelope (2.3: code, msg, detail) and its exit code. */
export interface CliFailure {
  envelope: { code: number; msg: string; detail: string; reason: ErrorReason };
  exitCode: number;
}

/**
 * A command's failure in the admin API's envelope (issue 41), so a script reads the same `code` it would get over
 * HTTP: an AppError as it is, a bad configuration (exit 2) or a usage mistake (unknown option, missing argument) as
 * INVALID_PARAMETER, anything else as INTERNAL. Exit codes: 2 for configuration, otherwise 1.
 */
export function cliFailure(err: unknown): CliFailure {
  const of = (reason: ErrorReason, detail: string, exitCode = 1): CliFailure => ({
    envelope: { code: ErrorCodes[reason].code, msg: ErrorCodes[reason].msg, detail, reason },
    exitCode,
  });
  if (err instanceof AppError)
    return { envelope: { code: err.code, msg: err.msg, detail: err.detail, reason: err.reason }, exitCode: 1 };
  if (err instanceof ConfigError) return of('INVALID_PARAMETER', err.message, 2);
  if (err instanceof CommanderError)
    return of('INVALID_PARAMETER', err.message.replace(/^error: /, ''), err.exitCode || 1);
  const e = err as { detail?: string; message?: string } | undefined;
  return of('INTERNAL', e?.detail ?? e?.message ?? String(err));
}

/**
 * Prints a failure: under --json one JSON object `{"error": {code, msg, detail, reason}}` on stdout (where a script
 * reads the answer; the exit code says it failed), otherwise the detail as a line on stderr.
 */
export function printCliFailure(err: unknown, json: boolean): number {
  const failure = cliFailure(err);
  if (json) process.stdout.write(`${JSON.stringify({ error: failure.envelope }, null, 2)}\n`);
  else console.error(failure.envelope.detail);
  return failure.exitCode;
}
