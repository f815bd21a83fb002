import { invalidParameter } from '../errors/app-error.js';

/** `on` / `off` of a switch option or argument (undefined when not given). */
export function onOff(option: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw invalidParameter(option, 'must be on or off');
}
