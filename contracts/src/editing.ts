/**
 * What the console's editing calls answer, as the api sends them (api/src/content, api/src/tools) and the console reads
 * them (docs/operations.md, Editing content). Types only.
 */

/** One saved version of a post or a tool, without its record. */
export interface RevisionSummary {
  version: number;
  author: string;
  created_at: string;
}

/** A saved version with the whole record it saved. */
export interface Revision<T = unknown> extends RevisionSummary {
  body: T;
}

/** One line of the line diff of two saved versions. */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

/** A tool as the editors' list shows it, hidden ones included. */
export interface EditorToolRow {
  id: number;
  slug: string;
  name: string;
  category: string | null;
  pricing: string | null;
  hidden: boolean;
}

/** A category or a tag, with how many tools have it. */
export interface TaxonomyEntry {
  name: string;
  /** Tools with it, hidden ones included (a rename changes them too). */
  tools: number;
}

/** Every category and tag in use. */
export interface Taxonomy {
  categories: TaxonomyEntry[];
  tags: TaxonomyEntry[];
}

/** What a rename or merge of a category or tag would do, or did. */
export interface RenamePlan {
  /** How many tools change. */
  tools: number;
  /** Whether `to` is already in use (a merge) or a new name (a rename). */
  merge: boolean;
  slugs: string[];
}
