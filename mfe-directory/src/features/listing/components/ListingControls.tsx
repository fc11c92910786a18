import type { RefObject } from 'react';
import { SelectOptions } from '@aitools/platform';
import {
  CATEGORIES,
  defaultSort,
  PAGE_SIZES,
  SORT_OPTIONS,
  TYPE_OPTIONS,
  type SortKey,
  type ToolQuery,
  type TypeFilter,
} from '@aitools/contracts/toolQuery';
import { nextCategory, nextType, type ListingControls as Controls } from '../listingControls';
import type { QueryLink } from './queryLink';

const SIZE_OPTIONS = PAGE_SIZES.map((n) => ({ value: n, label: n }));

/** "Free" and "Paid" come only from a tool page's Explore More links; they show as active chips when set. */
const EXTRA_TYPE_LABELS: Partial<Record<TypeFilter, string>> = {
  free: 'Free',
  paid: 'Paid',
  checked: 'MCP Servers with no open findings',
  healthy: 'Healthy MCP Servers',
};

interface Props {
  form: RefObject<HTMLFormElement | null>;
  query: ToolQuery;
  controls: Controls;
  queryLink: QueryLink;
  total: number;
  fallback: boolean;
  /** The visitor is about to use the controls. */
  onEngage: () => void;
}

/**
 * The search, sort, page size and chips: a GET form and links, so they work as plain HTML; with the code loaded,
 * each change rewrites the address in place. The fields are uncontrolled (see useHomeQuery).
 */
/** A sort as the select writes it: '' for the default one of the search (readToolQuery reads '' as that). */
export const sortValue = (sort: SortKey, search: string) => (sort === defaultSort(search) ? '' : sort);

export function ListingControls({ form, query, controls, queryLink, total, fallback, onEngage }: Props) {
  const { category, type, sort, size } = query;
  const typeChips = [
    ...TYPE_OPTIONS,
    ...(EXTRA_TYPE_LABELS[type] ? [{ value: type, label: EXTRA_TYPE_LABELS[type]! }] : []),
  ];
  return (
    <form
      ref={form}
      className="dir-controls"
      method="get"
      action="/"
      role="search"
      aria-label="Search and filters"
      onSubmit={(e) => e.preventDefault()}
      onFocus={onEngage}
      onPointerDown={onEngage}
    >
      <div className="dir-controls__row">
        <label className="dir-search">
          <span className="visually-hidden">Search tools and servers</span>
          <input
            type="search"
            name="search"
            defaultValue={query.search}
            placeholder="Search tools and servers..."
            onChange={(e) => controls.onSearch(e.target.value)}
          />
        </label>
        <label className="dir-select">
          <span>Sort by</span>
          {/* The default sort's option sends no value, so the form without JavaScript gets Best match once a search
              is typed; the select starts afresh when a search begins or ends, as the default changes then. */}
          <select
            key={query.search.trim() ? 'searching' : 'browsing'}
            name="sort"
            defaultValue={sortValue(sort, query.search)}
            onChange={(e) => controls.onSort(e.target.value as SortKey | '')}
          >
            <SelectOptions options={SORT_OPTIONS.map((o) => ({ ...o, value: sortValue(o.value, query.search) }))} />
          </select>
        </label>
        <label className="dir-select">
          <span>Per page</span>
          <select name="size" defaultValue={size} onChange={(e) => controls.onPageSize(Number(e.target.value))}>
            <SelectOptions options={SIZE_OPTIONS} />
          </select>
        </label>
        {/* Without JavaScript, Enter in the search box or this button applies the form. */}
        <noscript>
          <button type="submit" className="btn btn--primary">
            Apply
          </button>
        </noscript>
        {category !== 'All' && <input type="hidden" name="category" value={category} />}
        {type !== 'all' && <input type="hidden" name="type" value={type} />}
      </div>
      <ul className="dir-chips" aria-label="Type">
        {typeChips.map((o) => (
          <li key={o.value}>
            <a
              className="chip dir-chip"
              aria-current={type === o.value ? 'true' : undefined}
              {...queryLink({ type: nextType(o.value, query) }, () => controls.onType(o.value))}
            >
              {o.label}
            </a>
          </li>
        ))}
      </ul>
      <ul className="dir-chips" aria-label="Category">
        {CATEGORIES.map((c) => (
          <li key={c}>
            <a
              className="chip dir-chip"
              aria-current={category === c ? 'true' : undefined}
              {...queryLink({ category: nextCategory(c, query) }, () => controls.onCategory(c))}
            >
              {c}
            </a>
          </li>
        ))}
      </ul>
      {type === 'mcp-servers' && (
        <p className="dir-hint">
          <a {...queryLink({ type: 'checked' }, () => controls.onType('checked'))}>
            Only servers whose descriptions were checked with no open findings
          </a>
          {' · '}
          <a {...queryLink({ type: 'healthy' }, () => controls.onType('healthy'))}>
            Only remote servers whose last health check was healthy
          </a>
        </p>
      )}
      {category !== 'All' && <p className="dir-hint">Click "{category}" again to clear filter</p>}
      {fallback && (
        <p className="dir-hint">
          The full directory is unavailable right now; showing a built-in selection of popular tools.
        </p>
      )}
      <p className="dir-count" role="status">
        {total} {total === 1 ? 'tool' : 'tools'} found
      </p>
    </form>
  );
}
