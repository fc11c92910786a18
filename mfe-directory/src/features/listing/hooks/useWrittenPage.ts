import { useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ToolQuery } from '@aitools/contracts/toolQuery';
import { pageOf, type HomePage, type ToolList } from '../../tools/api/loadTools';
import { answerAtOnce, askPage } from '../pageAnswers';

/**
 * The page for the query the visitor just wrote, before the router's navigation commits it: in the change's own
 * render from the whole list when it is held, or from an answer holding all its results (a narrower query), else
 * the API's answer, rendered the moment it arrives (synchronously, not in the navigation's time-sliced transition).
 * Null until then; the route's data shows meanwhile.
 */
export function useWrittenPage(written: ToolQuery | null, whole: ToolList | null): HomePage | null {
  // Computed when the query is written: what is held then answers it.
  const atOnce = useMemo(
    () => (!written ? null : whole ? pageOf(whole, written) : answerAtOnce(written)),
    [whole, written],
  );
  const [answered, setAnswered] = useState<{ query: ToolQuery; page: HomePage } | null>(null);
  useEffect(() => {
    if (atOnce || !written) return;
    let current = true;
    void askPage(written).then((page) => {
      if (current) flushSync(() => setAnswered({ query: written, page }));
    });
    return () => {
      current = false;
    };
  }, [atOnce, written]);
  if (atOnce) return atOnce;
  return answered && answered.query === written ? answered.page : null;
}
