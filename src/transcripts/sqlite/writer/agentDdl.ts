/**
 * The tables ContextScope writes into an agent database: the session and transcript tables of OpenClaw's agent
 * schema (column names, types and keys as in 2026.9.6 = schema 23, or 2026.8.1 = schema 19 without compressed
 * rows and cold archives). Only these tables exist in a generated database; OpenClaw's other agent tables (memory,
 * auth, boards, deliveries …) are not created. Written for ContextScope from the documented layout.
 */

const SESSION_TABLES = `
CREATE TABLE schema_meta (
  meta_key TEXT NOT NULL PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL, agent_id TEXT,
  app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL, entry_json TEXT NOT NULL,
  legacy_acp_migration_json TEXT, entry_valid INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL, status TEXT,
  created_at INTEGER, created_via TEXT, created_actor_type TEXT, created_actor_id TEXT, owner_actor_type TEXT,
  owner_actor_id TEXT, owner_assigned_by_type TEXT, owner_assigned_by_id TEXT, owner_assigned_at INTEGER,
  project_id TEXT, parent_session_key TEXT, spawned_by TEXT, fork_source_session_key TEXT,
  fork_source_session_id TEXT, fork_source_entry_id TEXT, label TEXT, display_name TEXT, category TEXT, icon TEXT,
  pinned_at INTEGER, archived_at INTEGER, last_read_at INTEGER, last_interaction_at INTEGER, last_activity_at INTEGER
) STRICT;
CREATE INDEX idx_agent_session_nodes_parent_session_key ON session_nodes(parent_session_key, session_key);
CREATE INDEX idx_agent_session_nodes_spawned_by ON session_nodes(spawned_by, session_key);
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT, reason TEXT,
  session_scope TEXT NOT NULL DEFAULT 'conversation', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  transcript_updated_at INTEGER DEFAULT NULL, transcript_observed_at INTEGER DEFAULT NULL,
  session_entry_provenance INTEGER NOT NULL DEFAULT 0, acp_owned INTEGER NOT NULL DEFAULT 0, plugin_owner_id TEXT,
  hook_external_content_source TEXT, started_at INTEGER, ended_at INTEGER, status TEXT, chat_type TEXT,
  channel TEXT, account_id TEXT, primary_conversation_id TEXT, model_provider TEXT, model TEXT,
  agent_harness_id TEXT, parent_session_key TEXT, spawned_by TEXT, display_name TEXT,
  FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE
) STRICT;
CREATE INDEX idx_agent_session_windows_session_key ON session_windows(session_key, updated_at DESC, session_id);
`;

const EVENTS_23 = `
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, created_at INTEGER NOT NULL, event_zstd BLOB,
  event_utf8_bytes INTEGER, navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE,
  CHECK ((event_json IS NOT NULL AND event_zstd IS NULL) OR (event_json IS NULL AND event_zstd IS NOT NULL
    AND event_utf8_bytes BETWEEN 1 AND 4194304 AND navigation_json IS NOT NULL AND json_valid(navigation_json)))
) STRICT;
`;

const EVENTS_19 = `
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE
) STRICT;
`;

const DERIVED_TABLES = `
CREATE TABLE transcript_event_identities (
  session_id TEXT NOT NULL, event_id TEXT NOT NULL, seq INTEGER NOT NULL, event_type TEXT, parent_id TEXT,
  message_idempotency_key TEXT, created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, event_id),
  FOREIGN KEY (session_id, seq) REFERENCES transcript_events(session_id, seq) ON DELETE CASCADE
) STRICT;
CREATE INDEX idx_agent_transcript_event_identity_sequence ON transcript_event_identities(session_id, seq);
CREATE INDEX idx_agent_transcript_event_sequence ON transcript_event_identities(session_id, event_type, seq DESC);
CREATE TABLE session_transcript_active_events (
  session_id TEXT NOT NULL, active_position INTEGER NOT NULL, event_seq INTEGER NOT NULL,
  message_position INTEGER, context_eligible INTEGER,
  PRIMARY KEY (session_id, active_position),
  FOREIGN KEY (session_id, event_seq) REFERENCES transcript_events(session_id, seq) ON DELETE CASCADE
) STRICT;
CREATE TABLE session_transcript_index_state (
  session_id TEXT NOT NULL PRIMARY KEY, indexed_seq INTEGER NOT NULL, leaf_event_id TEXT,
  needs_rebuild INTEGER NOT NULL DEFAULT 0, active_event_count INTEGER NOT NULL DEFAULT 0,
  active_message_count INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE transcript_rewrite_watermarks (
  session_id TEXT NOT NULL PRIMARY KEY, generation TEXT NOT NULL, updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE trajectory_runtime_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT, event_json TEXT NOT NULL, created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) STRICT;
CREATE TABLE session_transcript_archives (
  session_id TEXT NOT NULL, generation TEXT NOT NULL, session_key TEXT NOT NULL, reason TEXT NOT NULL,
  encoding TEXT NOT NULL, archive_blob BLOB NOT NULL, archive_sha256 TEXT NOT NULL, archive_name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL, published_at INTEGER, publish_attempts INTEGER NOT NULL DEFAULT 0,
  last_publish_attempt_at INTEGER, last_publish_error TEXT,
  PRIMARY KEY (session_id, generation)
) STRICT;
CREATE VIRTUAL TABLE session_transcript_fts USING fts5(
  text, session_id UNINDEXED, message_id UNINDEXED, role UNINDEXED, timestamp UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);
`;

const TABLES_23_ONLY = `
CREATE TABLE session_transcript_cold_archives (
  session_id TEXT NOT NULL PRIMARY KEY, generation TEXT NOT NULL, archive_name TEXT NOT NULL UNIQUE,
  archive_sha256 TEXT NOT NULL, event_count INTEGER NOT NULL, raw_bytes INTEGER NOT NULL,
  archive_bytes INTEGER NOT NULL, last_seq INTEGER NOT NULL, archived_at INTEGER NOT NULL, storage TEXT NOT NULL,
  archive_blob BLOB
) STRICT;
CREATE TABLE session_transcript_fts_rows (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT) STRICT;
`;

export type WritableAgentSchema = 19 | 23;

/** DDL for a new agent database at `version` (run inside one transaction, after the page-level pragmas). */
export function agentSchemaDdl(version: WritableAgentSchema): string {
  return version === 23
    ? SESSION_TABLES + EVENTS_23 + DERIVED_TABLES + TABLES_23_ONLY
    : SESSION_TABLES + EVENTS_19 + DERIVED_TABLES;
}
