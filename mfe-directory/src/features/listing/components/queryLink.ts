import type { MouseEvent } from 'react';
import { updateQuery, type ToolQuery } from '@aitools/contracts/toolQuery';
import { plainClick } from '../../../shared/plainClick';
import { homeHref } from '../homeQuery';

/** A link that stands for a query: its address works without the code; a plain click applies it in place. A plain
 *  anchor's props (not the router's Link: the chips re-render at each keystroke, and a click never navigates). */
export type QueryLink = (
  target: Partial<ToolQuery>,
  apply: () => void,
) => { href: string; onClick: (e: MouseEvent) => void };

export const queryLinkFor =
  (base: ToolQuery): QueryLink =>
  (target, apply) => ({
    href: homeHref(updateQuery({ ...base, page: 1 }, target)),
    onClick: (e) => {
      if (!plainClick(e)) return;
      e.preventDefault();
      apply();
    },
  });
