/**
 * Release tokens, for operators (run from the repository root, on the server's database):
 *   pnpm token create <remote>[,<remote>...] --label <text>   a token for those remotes' CI, printed once
 *   pnpm token create '*' --label <text>                      (or --all) an operator token for every remote
 *   pnpm token list                                           labels, remotes, created and last used
 *   pnpm token revoke <label>                                 ends the token at once, on every instance
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { ALL_REMOTES, createToken, listTokens, parseRemotes, revokeToken, TokenError } from './tokens';
import { reportRefusal } from './refusal';
import { cliActor, writeAudit } from '../content/audit';

const USAGE = `Usage: pnpm token <command>
  create <remote>[,<remote>...] --label <text>   a token that may release those remotes (printed once)
  create --all --label <text>                    an operator token for every remote (or '*' as the remote)
  list                                           every token: label, remotes, created, last used, revoked
  revoke <label>                                 end a token at once`;

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { label: { type: 'string' }, all: { type: 'boolean' } },
});
const [command, arg] = positionals;
if (!['create', 'list', 'revoke'].includes(command ?? '')) {
  console.error(USAGE);
  process.exit(2);
}

const db = await openDatabase(loadConfig().database);
try {
  if (command === 'create') {
    if (!values.label)
      throw new TokenError(
        'Give the token a label (--label blog-ci): history entries and `pnpm token revoke` name it.',
      );
    const remotes = values.all ? [ALL_REMOTES] : parseRemotes(arg ?? '');
    const token = await createToken(db, { label: values.label, remotes });
    await writeAudit(db, {
      actor: cliActor(),
      action: 'token.create',
      target: values.label,
      summary: `remotes ${remotes.join(',')}`,
    });
    console.log(
      `Token "${values.label}" for ${remotes[0] === ALL_REMOTES ? 'every remote' : remotes.join(', ')}. It is shown only now; store it as the CI secret RELEASE_TOKEN:`,
    );
    console.log(token);
  } else if (command === 'list') {
    const tokens = await listTokens(db);
    if (!tokens.length) console.log('(no tokens)');
    for (const t of tokens) {
      const state = t.revokedAt ? `revoked ${t.revokedAt}` : `last used ${t.lastUsedAt ?? 'never'}`;
      console.log(`${t.label.padEnd(24)} ${t.remotes.join(',').padEnd(24)} created ${t.createdAt}  ${state}`);
    }
  } else {
    if (!arg) throw new TokenError('Name the token to revoke by its label (see `pnpm token list`).');
    if (!(await revokeToken(db, arg)))
      throw new TokenError(`No live token is labelled "${arg}" (see \`pnpm token list\`).`);
    await writeAudit(db, { actor: cliActor(), action: 'token.revoke', target: arg, summary: 'revoked' });
    console.log(`Token "${arg}" revoked: it is refused from now on, on every instance.`);
  }
} catch (err) {
  reportRefusal(err, TokenError);
} finally {
  await db.destroy();
}
