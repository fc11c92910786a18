import type { MouseEvent } from 'react';
import type { ToolQuery } from '@aitools/api/contracts/toolQuery';
import { plainClick } from '../../../shared/plainClick';
import { homeHref } from '../homeQuery';

/** A link that stands for a query: its address works without the code; a plain click applies it in place. */
export type QueryLink = (target: Partial<ToolQuery>, apply: () => void) => { to: string; onClick: (e: MouseEvent) => void };

export const queryLinkFor =
  (base: ToolQuery): QueryLink =>
  (target, apply) => ({
    to: homeHref({ ...base, page: 1, ...target }),
    onClick: (e) => {
      if (!plainClick(e)) return;
      e.preventDefault();
      apply();
    },
  });
