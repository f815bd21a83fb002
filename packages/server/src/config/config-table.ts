import { describeEnv } from './config.js';

/** The configuration table of docs/configuration.md, generated from the Env schema (scripts/config-table.mjs writes it). */
export function configTableMarkdown(): string {
  const rows = describeEnv().map(
    ({ name, default: def, description }) =>
      `| \`${name}\` | ${def === undefined ? '-' : `\`${String(def)}\``} | ${description.replace(/\|/g, '\\|')} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
