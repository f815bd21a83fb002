import crypto from 'node:crypto';
import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { loadMasterKeys, writeMasterKeyFile } from '../crypto/master-keys.js';
import { masterKeyId, type SecretBox } from '../crypto/secret-box.js';
import { countSealed, resealAll, type SealedColumnCount } from './reseal.js';
import { SEALED_COLUMNS } from './sealed-columns.js';
import type { SealedValuesRepository } from './sealed-values.repository.js';

/** What the `master-key` commands use. */
export interface MasterKeyCommandServices {
  box: SecretBox;
  sealedValues: SealedValuesRepository;
}

const countsText = (counts: SealedColumnCount[]) =>
  counts
    .map(
      (c) =>
        `  ${c.column}: ${
          Object.entries(c.byKey)
            .map(([k, n]) => `${n} under ${k}`)
            .join(', ') || 'none'
        }${c.unreadable ? `, ${c.unreadable} UNREADABLE` : ''}`,
    )
    .join('\n');

/** The configured master keys, the current one first, and how many values of each sealed column each one seals. */
async function sealedStatus(s: MasterKeyCommandServices) {
  const columns = await countSealed(s.sealedValues, s.box, SEALED_COLUMNS);
  const [current, ...previous] = s.box.keyIds;
  return { current: current!, previous, columns };
}

/**
 * Master key rotation (docs/operations.md): `status` shows which key seals
 * what, `rotate` (embedded mode) adds a new current key to DATA_DIR/master.key,
 * `reseal` moves every sealed value to the current key, `retire` drops the
 * previous keys once nothing is sealed under them.
 */
export function registerMasterKeyCommands(program: Command, ctx: CliContext<MasterKeyCommandServices>): void {
  const cmd = program.command('master-key').description('the master key that seals secrets at rest, and its rotation');

  cmd
    .command('status')
    .description('the configured master keys and how many stored values each one seals')
    .action(() =>
      ctx.print(
        sealedStatus,
        ({ current, previous, columns }) =>
          `current ${current}${previous.length ? `\nprevious ${previous.join(', ')}` : ''}\n${countsText(columns)}`,
      ),
    );

  cmd
    .command('generate')
    .description('print a new random master key (base64) and its id, for MASTER_KEY')
    .action(() => {
      const key = crypto.randomBytes(32);
      ctx.output(
        { key: key.toString('base64'), id: masterKeyId(key) },
        () => `${key.toString('base64')}\n(id ${masterKeyId(key)})`,
      );
    });

  cmd
    .command('rotate')
    .description(
      'embedded mode: make a new key current in DATA_DIR/master.key, keeping the old ones; then restart the service and run reseal',
    )
    .action(() => {
      const keys = loadMasterKeys(ctx.config());
      if (!keys.file) {
        throw new Error(
          'MASTER_KEY is set: rotate by configuration instead (docs/operations.md): MASTER_KEY=<new key> (see `master-key generate`) and MASTER_KEY_PREVIOUS=<old key> on every instance, then `master-key reseal`',
        );
      }
      const fresh = crypto.randomBytes(32);
      writeMasterKeyFile(keys.file, [fresh, keys.current, ...keys.previous]);
      const id = masterKeyId(fresh);
      ctx.output(
        { current: id, previous: [keys.current, ...keys.previous].map(masterKeyId), file: keys.file },
        () =>
          `${keys.file}: ${id} is now the current master key; the previous ones still open what they sealed.\nNext: restart the service, then run \`master-key reseal\`, then \`master-key retire\`.`,
      );
    });

  cmd
    .command('reseal')
    .description('seal every stored secret that is not under the current master key anew under it')
    .action(async () => {
      await ctx.withServices(async (s) => {
        const results = await resealAll(s.sealedValues, s.box, SEALED_COLUMNS);
        ctx.output({ current: s.box.currentKeyId, columns: results }, () =>
          [
            `resealed under ${s.box.currentKeyId}:`,
            ...results.map(
              (r) =>
                `  ${r.column}: ${r.resealed} of ${r.scanned}${r.changedMeanwhile ? ` (${r.changedMeanwhile} rewritten by the service meanwhile)` : ''}${r.unreadable ? `, ${r.unreadable} UNREADABLE` : ''}`,
            ),
          ].join('\n'),
        );
        if (results.some((r) => r.unreadable > 0)) process.exitCode = 1;
      });
    });

  cmd
    .command('retire')
    .description('drop the previous master keys once no stored value is sealed under them')
    .action(async () => {
      await ctx.withServices(async (s) => {
        const { current, previous, columns } = await sealedStatus(s);
        const left = columns.filter((c) => c.unreadable > 0 || Object.keys(c.byKey).some((k) => k !== current));
        if (left.length) {
          throw new Error(
            `values are still sealed under a previous key (or unreadable); run \`master-key reseal\` first:\n${countsText(left)}`,
          );
        }
        const keys = loadMasterKeys(ctx.config());
        if (keys.file) writeMasterKeyFile(keys.file, [keys.current]);
        ctx.output({ current, retired: previous, file: keys.file }, () =>
          previous.length === 0
            ? `only ${current} is configured; nothing to retire`
            : keys.file
              ? `${keys.file}: retired ${previous.join(', ')}; restart the service to forget them`
              : `nothing is sealed under ${previous.join(', ')}: remove MASTER_KEY_PREVIOUS from every instance's configuration`,
        );
      });
    });
}
