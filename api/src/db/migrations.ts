import type Database from 'better-sqlite3';

/** Ordered, append-only schema steps; user_version records how many have run. */
const MIGRATIONS: string[] = [
  `CREATE TABLE tools (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     slug TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     category TEXT,
     pricing TEXT,
     popularity_score REAL,
     doc TEXT NOT NULL,            -- the whole tool as JSON (SPEC section 3 fields)
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
   );
   CREATE TABLE blog_posts (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     slug TEXT NOT NULL UNIQUE,
     title TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'published' CHECK (status IN ('published','draft')),
     published_at TEXT,
     doc TEXT NOT NULL
   );
   CREATE TABLE submissions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     website_url TEXT NOT NULL,
     tool_type TEXT NOT NULL CHECK (tool_type IN ('ai-tool','mcp-server')),
     description TEXT,
     message TEXT,
     status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected')),
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
     reviewed_at TEXT,
     tool_slug TEXT
   );
   CREATE TABLE contact_messages (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     subject TEXT NOT NULL,
     message TEXT NOT NULL,
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
   );
   CREATE TABLE early_access (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     type TEXT NOT NULL,
     source TEXT NOT NULL,
     timestamp TEXT NOT NULL
   );
   CREATE TABLE events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     event TEXT NOT NULL,
     data TEXT NOT NULL,
     timestamp TEXT NOT NULL
   );`,
  // Idempotency keys of form writes (one row per key and endpoint, written in the row's transaction), and the
  // server's own receive time of events, which their retention goes by (the event's timestamp is the client's).
  `CREATE TABLE idempotency_keys (
     endpoint TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,   -- digest of the validated input: the same key with other data is refused
     result TEXT NOT NULL,        -- the first answer, as JSON
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
     PRIMARY KEY (endpoint, key)
   ) WITHOUT ROWID;
   CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
   ALTER TABLE events ADD COLUMN received_at TEXT;
   UPDATE events SET received_at = timestamp;
   CREATE INDEX events_received_at ON events (received_at);`,
  // MCP registry records, the server.json a registry import attaches to a pending submission (a side table, so
  // the submissions table keeps its shape), and full-text search of tools (trigram: substring matches via the index).
  `CREATE TABLE mcp_servers (
     name TEXT PRIMARY KEY,        -- reverse-DNS server name (server.json "name")
     tool_slug TEXT NOT NULL UNIQUE REFERENCES tools(slug) ON DELETE CASCADE,
     doc TEXT NOT NULL,            -- the server.json record
     source TEXT NOT NULL DEFAULT 'seed' CHECK (source IN ('seed','import')),  -- the seed never overwrites an import
     updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
   );
   CREATE TABLE submission_servers (  -- the server.json a registry import attached to a submission
     submission_id INTEGER PRIMARY KEY REFERENCES submissions(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     doc TEXT NOT NULL
   );
   CREATE INDEX submission_servers_name ON submission_servers (name);
   CREATE VIRTUAL TABLE tools_fts USING fts5(name, description, tokenize = 'trigram');
   INSERT INTO tools_fts (rowid, name, description) SELECT id, name, coalesce(json_extract(doc, '$.description'), '') FROM tools;
   CREATE TRIGGER tools_fts_insert AFTER INSERT ON tools BEGIN
     INSERT INTO tools_fts (rowid, name, description) VALUES (new.id, new.name, coalesce(json_extract(new.doc, '$.description'), ''));
   END;
   CREATE TRIGGER tools_fts_update AFTER UPDATE ON tools BEGIN
     DELETE FROM tools_fts WHERE rowid = old.id;
     INSERT INTO tools_fts (rowid, name, description) VALUES (new.id, new.name, coalesce(json_extract(new.doc, '$.description'), ''));
   END;
   CREATE TRIGGER tools_fts_delete AFTER DELETE ON tools BEGIN
     DELETE FROM tools_fts WHERE rowid = old.id;
   END;`,
  // One number for "the public data changed" (tools, posts, server records), bumped in the writing transaction by
  // bumpDataVersion; caches of reads and pages are keyed by it, in this process and in any other on the same file.
  `CREATE TABLE data_version (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     version INTEGER NOT NULL
   );
   INSERT INTO data_version (id, version) VALUES (1, 1);`,
];

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let i = current; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
