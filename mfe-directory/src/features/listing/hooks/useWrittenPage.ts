import { useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ToolQuery } from '@aitools/api/contracts/toolQuery';
import { pageOf, type HomePage, type ToolList } from '../../tools/api/loadTools';
import { askPage } from '../pageAnswers';

/**
 * The page for the query the visitor just wrote, before the router's navigation commits it: from the whole list
 * when it is held (in the change's own render), else the API's answer, rendered the moment it arrives (synchronously,
 * not in the navigation's time-sliced transition). Null until then; the route's data shows meanwhile.
 */
export function useWrittenPage(written: ToolQuery | null, whole: ToolList | null): HomePage | null {
  const fromWhole = useMemo(() => (whole && written ? pageOf(whole, written) : null), [whole, written]);
  const [answered, setAnswered] = useState<{ query: ToolQuery; page: HomePage } | null>(null);
  useEffect(() => {
    if (whole || !written) return;
    let current = true;
    void askPage(written).then((page) => {
      if (current) flushSync(() => setAnswered({ query: written, page }));
    });
    return () => {
      current = false;
    };
  }, [whole, written]);
  if (fromWhole) return fromWhole;
  return answered && answered.query === written ? answered.page : null;
}
