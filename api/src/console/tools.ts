/**
 * The editors' tool pages (docs/operations.md, Editing content: Tools): the list, a save of every field a tool's page shows,
 * hide and unhide, versions with diff and restore, and categories and tags. Every call needs the editor role; a
 * save names the version it started from and gets 409 with the newer one when another save came first
 * (content/revisions.ts; guard.ts answers it).
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import { success } from '@aitools/contracts/answers';
import { checkToolEdit, taxonomyRenameSchema, type ToolEdit } from '@aitools/contracts/toolEdit';
import { parseTags, type Tool } from '@aitools/contracts/tools';
import { editablePlans } from '@aitools/contracts/plans';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { notAccepted } from '../middleware/errors';
import { latestVersion, saveRevision } from '../content/revisions';
import { saveChange } from '../content/changes';
import {
  audit,
  getEditableTool,
  listToolsForEditors,
  requireTool,
  setToolHidden,
  writeToolEdit,
  type EditableTool,
  type Editor,
} from '../tools/editing';
import { applyRename, previewRename, taxonomy } from '../tools/taxonomy';
import { lockTools } from '../tools/repository';
import { AUDIT_SUMMARY_MAX, namesWithin, personActor } from '../content/audit';
import { readBody } from './body';
import { TAXONOMY_FORM, TOOL_FORM } from '@aitools/contracts/formFields';
import { versionRoutes } from './versionRoutes';
import { addressOf, allow, personOf } from './guard';

/** What a version of a tool holds: the fields an editor changes, as the edit form shows them. */
export function editableFields(tool: Tool, mcpServer: ServerJson | null): Record<string, unknown> {
  return {
    name: tool.name,
    slug: tool.slug,
    description: tool.description,
    fullDescription: tool.fullDescription,
    website: tool.website,
    category: tool.category ?? '',
    pricing: tool.pricing ?? '',
    tags: parseTags(tool.tags),
    logo: tool.logo,
    company: tool.company,
    mcpBadge: tool.mcpBadge,
    mcpServer,
    // As the contracts' rules store them, so an unchanged save reports no change (plans.ts: any stored shape).
    keyFeatures: (tool.keyFeatures ?? []).map((f) =>
      typeof f === 'string' ? f : f.description ? { title: f.title, description: f.description } : f.title,
    ),
    faqs: tool.faqs ?? [],
    plans: editablePlans(tool.detailedPricing),
  };
}

/** A tool's versions are kept under its id: its slug may change. */
const keyOf = (t: EditableTool) => String(t.tool.id);
const today = () => new Date().toISOString().slice(0, 10);

function readEdit(input: unknown): ToolEdit {
  const r = checkToolEdit(input);
  if (r.success) return r.data;
  throw notAccepted(TOOL_FORM, r.fieldErrors);
}

const saveBody = z.object({ base: z.number().int().min(0), edit: z.unknown() }).strict();

/** `siteOrigin`: where the public site answers, for the address of a tool's page. */
export function toolsEditorRouter(db: DB, { siteOrigin }: { siteOrigin: string }): Router {
  const router = Router();
  const edit = (action: string) => allow(db, 'edit', action);
  const editorOf = (res: Response, req: { ip?: string }): Editor => ({
    actor: personActor(personOf(res)),
    address: addressOf(req as never),
  });

  /** Saves `next` as a new version of `current` and writes it, or refuses a stale base. `restored`: the version it
   *  brings back (the audit row's action stays the route's, so a filter on it finds every restore). */
  async function save(
    current: EditableTool,
    base: number,
    next: ToolEdit,
    by: Editor,
    action: string,
    restored?: number,
  ) {
    const before = editableFields(current.tool, current.mcpServer);
    const changed = Object.keys(next).filter(
      (k) => JSON.stringify(before[k] ?? null) !== JSON.stringify((next as Record<string, unknown>)[k] ?? null),
    );
    let saved: Tool | undefined;
    const savedVersion = await saveChange(db, {
      kind: 'tool',
      key: keyOf(current),
      base,
      body: next,
      author: by.actor,
      previous: before,
      lock: (trx) => lockTools(trx, [current.tool.id]),
      async apply(trx) {
        // "Updated" (the page, the feed) means the tool changed: a save without changes keeps the date it had.
        const dated = changed.length ? today() : (current.tool.lastUpdated ?? today());
        saved = await writeToolEdit(trx, current, next, dated);
        return true;
      },
      audit: () => ({
        actor: by.actor,
        address: by.address,
        action,
        target: `/tool/${next.slug}`,
        summary:
          (restored === undefined ? '' : `version ${restored} restored: `) +
          (changed.length ? `changed ${changed.join(', ')}` : 'saved without changes'),
      }),
    });
    return { version: savedVersion, tool: saved! };
  }

  router.get('/tools', edit('tool.read'), async (req, res) => {
    const search = typeof req.query.search === 'string' ? req.query.search.slice(0, 200) : '';
    res.json(success({ tools: await listToolsForEditors(db, search) }));
  });

  router.get('/tools/:slug', edit('tool.read'), async (req, res) => {
    const found = await requireTool(db, req.params.slug as string);
    res.json(
      success({
        hidden: found.hidden,
        // The tool's page on the public site (the console's own origin has no /tool/… page).
        page: new URL(`/tool/${encodeURIComponent(found.tool.slug)}`, siteOrigin).href,
        version: await latestVersion(db, 'tool', keyOf(found)),
        edit: editableFields(found.tool, found.mcpServer),
      }),
    );
  });

  router.post('/tools/:slug', edit('tool.edit'), async (req, res) => {
    const body = readBody(saveBody, req.body);
    const next = readEdit(body.edit);
    const current = await requireTool(db, req.params.slug as string);
    res.json(success(await save(current, body.base, next, editorOf(res, req), 'tool.edit')));
  });

  for (const [path, hidden] of [
    ['hide', true],
    ['unhide', false],
  ] as const)
    router.post(`/tools/:slug/${path}`, edit(`tool.${path}`), async (req, res) => {
      const changed = await setToolHidden(db, req.params.slug as string, hidden, editorOf(res, req));
      res.json(success({ hidden, changed }));
    });

  versionRoutes(router, '/tools', {
    db,
    kind: 'tool',
    noun: 'tool',
    read: edit('tool.read'),
    restore: edit('tool.restore'),
    find: (req) => requireTool(db, req.params.slug as string),
    keyOf,
    // A restore is a save of the old version's fields, under today's field rules (a rule added since may refuse it).
    async restoreVersion(req, res, current, old, base) {
      const by = editorOf(res, req);
      res.json(success(await save(current, base, readEdit(old.body), by, 'tool.restore', old.version)));
    },
  });

  router.get('/taxonomy', edit('taxonomy.read'), async (_req, res) => {
    res.json(success(await taxonomy(db)));
  });

  router.post('/taxonomy/preview', edit('taxonomy.read'), async (req, res) => {
    res.json(success(await previewRename(db, readBody(taxonomyRenameSchema, req.body, TAXONOMY_FORM))));
  });

  // Every tool changed is a saved version of it; the whole rename is one transaction and one audit row.
  router.post('/taxonomy/rename', edit('taxonomy.rename'), async (req, res) => {
    const rename = readBody(taxonomyRenameSchema, req.body, TAXONOMY_FORM);
    const by = editorOf(res, req);
    const done = await applyRename(
      db,
      rename,
      async (trx, before, after) => {
        const found = (await getEditableTool(trx, before.slug))!;
        const key = keyOf(found);
        await saveRevision(
          trx,
          {
            kind: 'tool',
            key,
            base: await latestVersion(trx, 'tool', key),
            body: editableFields(after, found.mcpServer),
            author: by.actor,
            previous: editableFields(before, found.mcpServer),
          },
          async () => {},
        );
      },
      (trx, plan) => {
        const head = `"${rename.from}" -> "${rename.to}" on ${plan.tools} tools: `;
        return audit(trx, by, {
          action: `${rename.kind}.${plan.merge ? 'merge' : 'rename'}`,
          target: `${rename.kind} ${rename.from}`,
          // As many tools as the row holds; each tool's own versions record the change too.
          summary: head + namesWithin(plan.slugs, AUDIT_SUMMARY_MAX - head.length),
        });
      },
    );
    res.json(success(done));
  });

  return router;
}
