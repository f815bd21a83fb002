/** A 2.3 success envelope (schema: platformSuccess in http/schemas.ts). */
export function success<T>(data: T): { code: 200; msg: string; detail: string; data: T } {
  return { code: 200, msg: 'success', detail: '', data };
}
