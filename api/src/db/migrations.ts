/**
 * Ordered, append-only schema steps for both databases, written with Kysely's schema builder; schema_version
 * records how many have run. Steps that ran stay as they were, for databases made before a later one: the search
 * index of step 2 (SQLite FTS5, Postgres pg_trgm) is made there and dropped again by the last step.
 */
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DB, Dialect } from './schema';

type Step = (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;

/** An integer key the database numbers itself. */
function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
  );
}

const STEPS: Step[] = [
  // The site's tables (the shape the SQLite-only schema had reached in its four steps).
  async (db, dialect) => {
    await withId(db.schema.createTable('tools'), dialect)
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('category', 'text')
      .addColumn('pricing', 'text')
      .addColumn('popularity_score', 'double precision')
      .addColumn('doc', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('blog_posts'), dialect)
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('published','draft')`))
      .addColumn('published_at', 'text')
      .addColumn('doc', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('submissions'), dialect)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('website_url', 'text', (c) => c.notNull())
      .addColumn('tool_type', 'text', (c) => c.notNull().check(sql`tool_type IN ('ai-tool','mcp-server')`))
      .addColumn('description', 'text')
      .addColumn('message', 'text')
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending','approved','rejected')`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('reviewed_at', 'text')
      .addColumn('tool_slug', 'text')
      .execute();
    await withId(db.schema.createTable('contact_messages'), dialect)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('early_access'), dialect)
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('timestamp', 'text', (c) => c.notNull())
      .execute();
    // One subscriber per address, whatever its case.
    await db.schema
      .createIndex('early_access_email')
      .on('early_access')
      .unique()
      .expression(sql`lower(email)`)
      .execute();
    await withId(db.schema.createTable('events'), dialect)
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('timestamp', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text')
      .execute();
    await db.schema.createIndex('events_received_at').on('events').column('received_at').execute();
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['endpoint', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
    await db.schema
      .createTable('mcp_servers')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('tool_slug', 'text', (c) => c.notNull().unique().references('tools.slug').onDelete('cascade'))
      .addColumn('doc', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull().check(sql`source IN ('seed','import')`))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('submission_servers')
      .addColumn('submission_id', 'integer', (c) => c.primaryKey().references('submissions.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('doc', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('submission_servers_name').on('submission_servers').column('name').execute();
    // One number for "the public data changed", bumped in each writing transaction (see dataVersion.ts).
    await db.schema
      .createTable('data_version')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    await sql`INSERT INTO data_version (id, version) VALUES (1, 1)`.execute(db);
  },
  // Search of tool names and descriptions by substring, through an index (retired by the last step).
  async (db, dialect) => {
    if (dialect === 'postgres') {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
      await sql`CREATE INDEX tools_name_trgm ON tools USING gin (lower(coalesce(name, '')) public.gin_trgm_ops)`.execute(
        db,
      );
      await sql`CREATE INDEX tools_description_trgm ON tools USING gin (lower(coalesce(doc::jsonb ->> 'description', '')) public.gin_trgm_ops)`.execute(
        db,
      );
      return;
    }
    await sql`CREATE VIRTUAL TABLE tools_fts USING fts5(name, description, tokenize = 'trigram')`.execute(db);
    await sql`INSERT INTO tools_fts (rowid, name, description) SELECT id, name, coalesce(json_extract(doc, '$.description'), '') FROM tools`.execute(
      db,
    );
    await sql`CREATE TRIGGER tools_fts_insert AFTER INSERT ON tools BEGIN
      INSERT INTO tools_fts (rowid, name, description) VALUES (new.id, new.name, coalesce(json_extract(new.doc, '$.description'), ''));
    END`.execute(db);
    await sql`CREATE TRIGGER tools_fts_update AFTER UPDATE ON tools BEGIN
      DELETE FROM tools_fts WHERE rowid = old.id;
      INSERT INTO tools_fts (rowid, name, description) VALUES (new.id, new.name, coalesce(json_extract(new.doc, '$.description'), ''));
    END`.execute(db);
    await sql`CREATE TRIGGER tools_fts_delete AFTER DELETE ON tools BEGIN
      DELETE FROM tools_fts WHERE rowid = old.id;
    END`.execute(db);
  },
  // Write rate-limit counts in the database, so every instance counts against one limit.
  async (db) => {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  // The release manifest as rows, for instances sharing one Postgres (SQLite keeps manifest.json beside the files).
  async (db, dialect) => {
    await withId(db.schema.createTable('release_events'), dialect)
      .addColumn('remote', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull().check(sql`action IN ('release','rollback')`))
      .addColumn('release_id', 'text', (c) => c.notNull())
      .addColumn('from_id', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('by', 'text', (c) => c.notNull())
      .execute();
  },
  // Release tokens: teams' CI and operators call the release API with one (releases/tokens.ts); only its hash is kept.
  async (db, dialect) => {
    await withId(db.schema.createTable('release_tokens'), dialect)
      .addColumn('label', 'text', (c) => c.notNull().unique())
      .addColumn('remotes', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
  },
  // What each MCP server offers, from running it (data/mcp-inspections.json via the seed): one JSON document a tool.
  async (db) => {
    await db.schema
      .createTable('mcp_inspections')
      .addColumn('tool_slug', 'text', (c) => c.primaryKey().references('tools.slug').onDelete('cascade'))
      .addColumn('doc', 'text', (c) => c.notNull())
      .execute();
  },
  // The search index of step 2 retired: GET /api/tools?search= answers from the held list as the directory's query
  // does (contracts/src/toolQuery.ts), so no write keeps an index nobody reads.
  async (db, dialect) => {
    if (dialect === 'postgres') {
      await sql`DROP INDEX IF EXISTS tools_name_trgm`.execute(db);
      await sql`DROP INDEX IF EXISTS tools_description_trgm`.execute(db);
      return;
    }
    for (const trigger of ['tools_fts_insert', 'tools_fts_update', 'tools_fts_delete'])
      await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
    await sql`DROP TABLE IF EXISTS tools_fts`.execute(db);
  },
  // Canaries and automatic rollbacks in the release history; counts of visitors' error reports per release.
  async (db, dialect) => {
    const actions = sql`action IN ('release','rollback','canary','promote','abort')`;
    if (dialect === 'postgres') {
      await sql`ALTER TABLE release_events DROP CONSTRAINT IF EXISTS release_events_action_check`.execute(db);
      await sql`ALTER TABLE release_events ADD CONSTRAINT release_events_action_check CHECK (${actions})`.execute(db);
      await db.schema.alterTable('release_events').addColumn('canary', 'integer').execute();
      await db.schema.alterTable('release_events').addColumn('note', 'text').execute();
    } else {
      // SQLite cannot change a CHECK constraint: the table is made again with the rows copied over.
      await withId(db.schema.createTable('release_events_next'), dialect)
        .addColumn('remote', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull().check(actions))
        .addColumn('release_id', 'text', (c) => c.notNull())
        .addColumn('from_id', 'text')
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('by', 'text', (c) => c.notNull())
        .addColumn('canary', 'integer')
        .addColumn('note', 'text')
        .execute();
      await sql`INSERT INTO release_events_next (id, remote, action, release_id, from_id, at, by) SELECT id, remote, action, release_id, from_id, at, by FROM release_events`.execute(
        db,
      );
      await db.schema.dropTable('release_events').execute();
      await db.schema.alterTable('release_events_next').renameTo('release_events').execute();
    }
    await db.schema
      .createTable('release_signals')
      .addColumn('remote', 'text', (c) => c.notNull())
      .addColumn('release_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('minute', 'bigint', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('release_signals_key', ['remote', 'release_id', 'kind', 'minute'])
      .execute();
  },
  // The distinct sources (hashed visitor and network) behind each release's visitor error reports, per minute.
  async (db) => {
    await db.schema
      .createTable('release_signal_sources')
      .addColumn('remote', 'text', (c) => c.notNull())
      .addColumn('release_id', 'text', (c) => c.notNull())
      .addColumn('minute', 'bigint', (c) => c.notNull())
      .addColumn('visitor', 'text', (c) => c.notNull())
      .addColumn('network', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('release_signal_sources_key', ['remote', 'release_id', 'minute', 'visitor'])
      .execute();
  },
  // The operator console (docs/operations.md, The console): people, invitations, passkeys, challenges, sessions and
  // the audit trail, which the database itself keeps append-only.
  async (db, dialect) => {
    await withId(db.schema.createTable('console_people'), dialect)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('console_invitations'), dialect)
      .addColumn('person_id', 'integer', (c) => c.notNull().references('console_people.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('console_passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('person_id', 'integer', (c) => c.notNull().references('console_people.id').onDelete('cascade'))
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('console_passkeys_person').on('console_passkeys').column('person_id').execute();
    await db.schema
      .createTable('console_challenges')
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose IN ('register','login','add')`))
      .addColumn('flow_hash', 'text', (c) => c.notNull())
      .addColumn('invitation_id', 'integer')
      .addColumn('person_id', 'integer')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('console_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('person_id', 'integer', (c) => c.notNull().references('console_people.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_sessions_person').on('console_sessions').column('person_id').execute();
    await withId(db.schema.createTable('console_audit'), dialect)
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome IN ('ok','refused')`))
      .execute();
    await db.schema.createIndex('console_audit_at').on('console_audit').column('at').execute();
    // Instances on one Postgres say they are alive (console/instances.ts), for the console's health page.
    await db.schema
      .createTable('instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .execute();
    if (dialect === 'postgres') {
      await sql`CREATE FUNCTION console_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'console_audit is append-only'; END $$`.execute(db);
      await sql`CREATE TRIGGER console_audit_append_only BEFORE UPDATE OR DELETE ON console_audit
        FOR EACH ROW EXECUTE FUNCTION console_audit_append_only()`.execute(db);
    } else {
      for (const op of ['UPDATE', 'DELETE'])
        await sql`CREATE TRIGGER ${sql.id(`console_audit_no_${op.toLowerCase()}`)} BEFORE ${sql.raw(op)} ON console_audit
          BEGIN SELECT RAISE(ABORT, 'console_audit is append-only'); END`.execute(db);
    }
  },
  // Every saved version of an edited post or tool (content/revisions.ts): one table for both kinds, one row a save;
  // the unique key is what refuses the second of two saves made from the same version.
  async (db, dialect) => {
    await withId(db.schema.createTable('content_revisions'), dialect)
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('post','tool')`))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('content_revisions_version', ['kind', 'key', 'version'])
      .execute();
  },
  // Posts edited in the console: a scheduled status (published by each instance's timer: blog/scheduler.ts) and the
  // time of the last change.
  async (db, dialect) => {
    const statuses = sql`status IN ('published','draft','scheduled')`;
    if (dialect === 'postgres') {
      await sql`ALTER TABLE blog_posts DROP CONSTRAINT IF EXISTS blog_posts_status_check`.execute(db);
      await sql`ALTER TABLE blog_posts ADD CONSTRAINT blog_posts_status_check CHECK (${statuses})`.execute(db);
      await db.schema.alterTable('blog_posts').addColumn('updated_at', 'text').execute();
    } else {
      // SQLite cannot change a CHECK constraint: the table is made again with the rows copied over.
      await withId(db.schema.createTable('blog_posts_next'), dialect)
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(statuses))
        .addColumn('published_at', 'text')
        .addColumn('doc', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text')
        .execute();
      await sql`INSERT INTO blog_posts_next (id, slug, title, status, published_at, doc) SELECT id, slug, title, status, published_at, doc FROM blog_posts`.execute(
        db,
      );
      await db.schema.dropTable('blog_posts').execute();
      await db.schema.alterTable('blog_posts_next').renameTo('blog_posts').execute();
    }
    await db.schema
      .createIndex('blog_posts_status_published')
      .on('blog_posts')
      .columns(['status', 'published_at'])
      .execute();
  },
  // Purges the shared caches still have to take (edge/purges.ts): one row per key.
  async (db) => {
    await db.schema
      .createTable('edge_purges')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('queued_at', 'bigint', (c) => c.notNull())
      .addColumn('next_at', 'bigint', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('claimed_until', 'bigint', (c) => c.notNull())
      .addColumn('again_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  // Release files on Postgres (releases/dbReleaseStore.ts): each distinct content once, by its sha256; a release's
  // row and its paths name them. SQLite keeps files on disk and leaves these empty.
  async (db, dialect) => {
    await db.schema
      .createTable('release_contents')
      .addColumn('sha256', 'text', (c) => c.primaryKey())
      .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('stored_releases')
      .addColumn('remote', 'text', (c) => c.notNull())
      .addColumn('release_id', 'text', (c) => c.notNull())
      .addColumn('meta', 'text', (c) => c.notNull())
      .addColumn('built_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('stored_releases_key', ['remote', 'release_id'])
      .execute();
    await db.schema
      .createTable('release_paths')
      .addColumn('remote', 'text', (c) => c.notNull())
      .addColumn('release_id', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull().references('release_contents.sha256'))
      .addPrimaryKeyConstraint('release_paths_key', ['remote', 'release_id', 'path'])
      .addForeignKeyConstraint(
        'release_paths_release',
        ['remote', 'release_id'],
        'stored_releases',
        ['remote', 'release_id'],
        (c) => c.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('release_paths_sha256').on('release_paths').column('sha256').execute();
  },
  // Editors in the console (docs/operations.md, Editing content: Tools): a hidden tool keeps its row and leaves every
  // public list; a changed slug leaves its old address behind, which redirects to the new one.
  async (db) => {
    await db.schema.alterTable('tools').addColumn('hidden_at', 'text').execute();
    await db.schema
      .createTable('tool_slug_aliases')
      .addColumn('old_slug', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('tool_slug_aliases_slug').on('tool_slug_aliases').column('slug').execute();
  },
  // What the shared caches were last told about each remote's releases (releases/releaseChange.ts): a release change
  // whose purges were not queued (the process stopped between the two) is found, and purged, at the next start.
  async (db) => {
    await db.schema
      .createTable('edge_release_marks')
      .addColumn('remote', 'text', (c) => c.primaryKey())
      .addColumn('active', 'text', (c) => c.notNull())
      .addColumn('canary', 'text')
      .addColumn('percent', 'integer')
      .addColumn('events', 'integer', (c) => c.notNull())
      .execute();
  },
  // The description checks (docs/mcp.md, "Description checks"): each inspection kept as a snapshot per version with
  // its content hash, a change within one version flagged for the moderators, and findings they dismissed.
  async (db, dialect) => {
    await withId(db.schema.createTable('check_snapshots'), dialect)
      .addColumn('tool_slug', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('doc', 'text', (c) => c.notNull())
      .addColumn('taken_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('check_snapshots_slug').on('check_snapshots').columns(['tool_slug', 'id']).execute();
    await withId(db.schema.createTable('check_rug_pulls'), dialect)
      .addColumn('tool_slug', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('snapshot_id', 'integer', (c) => c.notNull())
      .addColumn('flagged_at', 'text', (c) => c.notNull())
      .addColumn('reviewed_at', 'text')
      .addColumn('reviewed_by', 'text')
      .addColumn('review_reason', 'text')
      .execute();
    await db.schema.createIndex('check_rug_pulls_slug').on('check_rug_pulls').column('tool_slug').execute();
    await db.schema
      .createTable('check_dismissals')
      .addColumn('tool_slug', 'text', (c) => c.notNull())
      .addColumn('finding_id', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('dismissed_by', 'text', (c) => c.notNull())
      .addColumn('dismissed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('check_dismissals_pk', ['tool_slug', 'finding_id'])
      .execute();
  },
  // The directory search's full-text index on each engine (tools/searchIndex.ts keeps it in step with the tools).
  async (db, dialect) => {
    if (dialect === 'sqlite') {
      await sql`CREATE VIRTUAL TABLE tool_search USING fts5(name, tags, category, mcp, mcp_text, description, digest UNINDEXED,
        tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
      return;
    }
    await sql`CREATE TABLE tool_search (id integer PRIMARY KEY, digest text NOT NULL, doc tsvector NOT NULL,
      mcp_text tsvector NOT NULL)`.execute(db);
    await sql`CREATE INDEX tool_search_doc ON tool_search USING gin (doc)`.execute(db);
    await sql`CREATE INDEX tool_search_mcp_text ON tool_search USING gin (mcp_text)`.execute(db);
  },
  // The search ranks, filters, counts and pages in the database (docs/performance.md, Directory search): each index
  // row also holds the lower-cased text of the whole-text rule (on a trigram index) and the filters' facets. The
  // index is derived data: made empty here, tools/searchIndex.ts fills it at the next search.
  async (db, dialect) => {
    if (dialect === 'sqlite') {
      await sql`DROP TABLE tool_search`.execute(db);
      await sql`CREATE VIRTUAL TABLE tool_search USING fts5(name, tags, category, mcp, mcp_text, description,
        tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
      await sql`CREATE VIRTUAL TABLE tool_whole USING fts5(whole, tokenize = 'trigram case_sensitive 1')`.execute(db);
      await sql`CREATE TABLE tool_facets (id integer PRIMARY KEY, digest text NOT NULL, category text NOT NULL,
        mcp integer NOT NULL, free integer NOT NULL, paid integer NOT NULL, checked integer NOT NULL,
        popularity real NOT NULL)`.execute(db);
      return;
    }
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
    await sql`DROP TABLE tool_search`.execute(db);
    await sql`CREATE TABLE tool_search (id integer PRIMARY KEY, digest text NOT NULL, doc tsvector NOT NULL,
      mcp_text tsvector NOT NULL, whole text NOT NULL, category text NOT NULL, mcp boolean NOT NULL,
      free boolean NOT NULL, paid boolean NOT NULL, checked boolean NOT NULL, popularity double precision NOT NULL)`.execute(
      db,
    );
    await sql`CREATE INDEX tool_search_doc ON tool_search USING gin (doc)`.execute(db);
    await sql`CREATE INDEX tool_search_mcp_text ON tool_search USING gin (mcp_text)`.execute(db);
    await sql`CREATE INDEX tool_search_whole ON tool_search USING gin (whole public.gin_trgm_ops)`.execute(db);
  },
  // Every run of a scheduled job (jobs/runs.ts): the console's Registry screen and the tests read it; and the
  // servers waiting for an inspection.
  async (db, dialect) => {
    await withId(db.schema.createTable('job_runs'), dialect)
      .addColumn('job', 'text', (c) => c.notNull())
      .addColumn('slot', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('instance', 'text', (c) => c.notNull())
      .addColumn('queue_id', 'text')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('running','ok','failed')`))
      .addColumn('reason', 'text')
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('counts', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('job_runs_job').on('job_runs').columns(['job', 'id']).execute();
    // The servers waiting for the inspect job (jobs/inspectJob.ts), queued by a new version or by hand.
    await db.schema
      .createTable('inspection_queue')
      .addColumn('tool_slug', 'text', (c) => c.primaryKey())
      .addColumn('version', 'text')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('queued_at', 'text', (c) => c.notNull())
      .execute();
  },
  // The upstream registries this site follows (registry/upstreams.ts) and each sync's result, kept for the console
  // (registry/sync.ts): `since` is the last good sync's mark, `resume_cursor` where a run stopped at its page limit.
  async (db, dialect) => {
    await withId(db.schema.createTable('registry_upstreams'), dialect)
      .addColumn('url', 'text', (c) => c.notNull().unique())
      .addColumn('policy', 'text', (c) => c.notNull().check(sql`policy IN ('submissions','list')`))
      .addColumn('pages_per_run', 'integer', (c) => c.notNull())
      .addColumn('since', 'text')
      .addColumn('resume_cursor', 'text')
      .addColumn('resume_mark', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('registry_syncs'), dialect)
      .addColumn('upstream_id', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome IN ('ok','refused')`))
      .addColumn('reason', 'text')
      .addColumn('counts', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('registry_syncs_upstream')
      .on('registry_syncs')
      .columns(['upstream_id', 'id'])
      .execute();
  },
  // Who wrote each inspection: the seed (data/mcp-inspections.json, kept in step with the file) or a run of the
  // inspector in the site or its CLI (registry/inspect.ts), which the seed then leaves alone.
  async (db) => {
    await db.schema
      .alterTable('mcp_inspections')
      .addColumn('source', 'text', (c) => c.notNull().defaultTo('seed'))
      .execute();
  },
  // Health checks of remote MCP servers (registry/health.ts): one row per check, read for the last check, the 30-day
  // uptime and median time, and the 7-day failing flag.
  async (db, dialect) => {
    await withId(db.schema.createTable('health_checks'), dialect)
      .addColumn('tool_slug', 'text', (c) => c.notNull())
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('ms', 'integer')
      .addColumn('detail', 'text')
      .execute();
    await db.schema
      .createIndex('health_checks_slug')
      .on('health_checks')
      .columns(['tool_slug', 'checked_at'])
      .execute();
  },
  // The search index's facets gain the healthy filter (tools/searchIndex.ts): every row's digest changes with it, so
  // the next search rewrites them all.
  async (db, dialect) => {
    if (dialect === 'sqlite')
      await sql`ALTER TABLE tool_facets ADD COLUMN healthy integer NOT NULL DEFAULT 0`.execute(db);
    else await sql`ALTER TABLE tool_search ADD COLUMN healthy boolean NOT NULL DEFAULT false`.execute(db);
  },
  // Postgres' search index gains its words in impact order (tools/searchIndex.ts, docs/performance.md "Directory
  // search"): one row per word of a tool with what that word adds to the tool's score, read top-down per typed word
  // so a page reads a bounded number of rows whatever the number of matches; and per word the sorted ids of its
  // tools, whose union (intarray, from postgresql-contrib like pg_trgm) counts the matches without reading them.
  // Derived data: the next search fills it (emptying tool_search makes it rewrite every row).
  async (db, dialect) => {
    if (dialect === 'sqlite') return;
    await sql`CREATE EXTENSION IF NOT EXISTS intarray SCHEMA public`.execute(db);
    await sql`DELETE FROM tool_search`.execute(db);
    await sql`CREATE TABLE tool_search_terms (tool integer NOT NULL, word text COLLATE "C" NOT NULL,
      impact real NOT NULL, popularity double precision NOT NULL, PRIMARY KEY (tool, word))`.execute(db);
    await sql`CREATE INDEX tool_search_terms_impact ON tool_search_terms (word, impact DESC, popularity DESC, tool)`.execute(
      db,
    );
    await sql`CREATE TABLE tool_search_words (word text COLLATE "C" PRIMARY KEY, tools integer[] NOT NULL)`.execute(db);
  },
  // The impacts of tool_search_terms are computed by the score's own expression (tools/searchIndex.ts), so that a
  // page whose last row ties an unread tool is proven without reading on: emptying tool_search makes the next
  // search rewrite every row with them.
  async (db, dialect) => {
    if (dialect === 'postgres') await sql`DELETE FROM tool_search`.execute(db);
  },
  // Each listed tool's code, the signs of its text's sentence embedding (tools/meaning/, docs/architecture.md
  // "Directory search"), with the digest of the text and model it was made from. Derived data: filled in the
  // background, and a tool without one is found by its words only. Postgres keeps it as bit(512), whose XOR and
  // bit_count measure two codes' distance in the database.
  async (db, dialect) => {
    const code = dialect === 'sqlite' ? sql`blob` : sql`bit(512)`;
    await sql`CREATE TABLE tool_codes (id integer PRIMARY KEY, digest text NOT NULL, code ${code} NOT NULL)`.execute(
      db,
    );
  },
];

/** SQLite files made before this runner kept their step count in user_version; four of those steps = two here. */
const LEGACY_SQLITE_STEPS: Record<number, number> = { 4: 2 };

/** Brings the schema up to date (`dialect`: which database `db` is, known to whoever opened it). */
export async function migrate(db: DB, dialect: Dialect): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Instances starting together on one Postgres: one migrates, the others wait and find it done.
    if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(7134001)`.execute(trx);
    await trx.schema
      .createTable('schema_version')
      .ifNotExists()
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    let done = (await trx.selectFrom('schema_version').select('version').where('id', '=', 1).executeTakeFirst())
      ?.version;
    if (done === undefined) {
      done = dialect === 'sqlite' ? await legacySqliteSteps(trx) : 0;
      await trx.insertInto('schema_version').values({ id: 1, version: done }).execute();
    }
    for (let i = done; i < STEPS.length; i++) await STEPS[i]!(trx as unknown as Kysely<unknown>, dialect);
    if (done < STEPS.length)
      await trx.updateTable('schema_version').set({ version: STEPS.length }).where('id', '=', 1).execute();
  });
}

async function legacySqliteSteps(db: DB): Promise<number> {
  const { rows } = await sql<{ user_version: number }>`PRAGMA user_version`.execute(db);
  const legacy = rows[0]?.user_version ?? 0;
  if (legacy === 0) return 0;
  const steps = LEGACY_SQLITE_STEPS[legacy];
  if (steps === undefined)
    throw new Error(
      `This SQLite file has an early schema (user_version ${legacy}); remove it and start again to re-seed.`,
    );
  return steps;
}
