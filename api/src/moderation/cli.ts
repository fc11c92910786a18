/**
 * Operator commands (run from the repository root):
 *   pnpm moderate list [--status pending|approved|rejected|all]   (pending by default)
 *   pnpm moderate approve <id> [--category "MCP Servers"] [--pricing Freemium]
 *   pnpm moderate reject <id>
 *   pnpm moderate contacts [--csv]
 *   pnpm moderate subscribers [--csv]
 * Uses the server's database (DATABASE_URL, else DATABASE_PATH).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import type { SubmissionStatus } from '../forms/repository';
import {
  approveSubmission,
  contactsCsv,
  listContactMessages,
  listEarlyAccess,
  listSubmissions,
  ModerationError,
  rejectSubmission,
  SUBMISSION_STATUSES,
  subscribersCsv,
} from './service';
import { contactLines, submissionLines, subscriberLine } from './format';
import { cliActor, writeAudit } from '../content/audit';

const USAGE = `Usage: pnpm moderate <command>
  list [--status pending|approved|rejected|all]  list tool submissions (pending by default)
  approve <id> [--category "X"] [--pricing X]    publish a pending submission as a directory tool
  reject <id>                                    reject a pending submission
  contacts [--csv]                               contact messages
  subscribers [--csv]                            advertising early-access subscribers`;

function parseId(raw: string | undefined): number {
  const id = Number(raw);
  if (!raw || !Number.isInteger(id) || id <= 0)
    throw new ModerationError(`Expected a submission id (a positive whole number), got "${raw ?? ''}".`);
  return id;
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      category: { type: 'string' },
      pricing: { type: 'string' },
      csv: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!command && !values.help) process.exitCode = 1;
    return;
  }
  const db = await openDatabase(loadConfig().database);
  try {
    switch (command) {
      case 'list': {
        const status = (values.status ?? 'pending') as SubmissionStatus | 'all';
        if (status !== 'all' && !SUBMISSION_STATUSES.includes(status))
          throw new ModerationError(`Unknown status "${status}" (use ${SUBMISSION_STATUSES.join(', ')} or all).`);
        const rows = await listSubmissions(db, status === 'all' ? undefined : status);
        if (!rows.length) console.log(status === 'all' ? 'No submissions.' : `No ${status} submissions.`);
        for (const s of rows) for (const l of submissionLines(s)) console.log(l);
        break;
      }
      case 'approve': {
        const { slug, tool } = await approveSubmission(db, parseId(arg), {
          category: values.category,
          pricing: values.pricing,
        });
        await writeAudit(db, {
          actor: cliActor(),
          action: 'submission.approve',
          target: `submission ${arg}`,
          summary: `pending -> approved as /tool/${slug} (${tool.category}, ${tool.pricing})`,
        });
        console.log(`Approved submission ${arg}: published at /tool/${slug}`);
        break;
      }
      case 'reject':
        await rejectSubmission(db, parseId(arg));
        await writeAudit(db, {
          actor: cliActor(),
          action: 'submission.reject',
          target: `submission ${arg}`,
          summary: 'pending -> rejected',
        });
        console.log(`Rejected submission ${arg}.`);
        break;
      case 'contacts':
        if (values.csv) process.stdout.write(await contactsCsv(db));
        else for (const m of await listContactMessages(db)) for (const l of contactLines(m)) console.log(l);
        break;
      case 'subscribers':
        if (values.csv) process.stdout.write(await subscribersCsv(db));
        else for (const s of await listEarlyAccess(db)) console.log(subscriberLine(s));
        break;
      default:
        throw new ModerationError(`Unknown command "${command}".\n${USAGE}`);
    }
  } finally {
    await db.destroy();
  }
}

try {
  await run(process.argv.slice(2));
} catch (err) {
  console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
