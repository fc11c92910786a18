import { createContext, useContext, useEffect } from 'react';
import { globalSingleton } from './singleton';
import { applyHead, type Head } from './headTags';

export type { Head };

/** On the server the shell provides a collector; the route that renders last wins. */
export interface HeadCollector {
  head: Head | null;
}

export const HeadContext = globalSingleton('head-context', () => createContext<HeadCollector | null>(null));

export function useHead(head: Head): void {
  const collector = useContext(HeadContext);
  if (collector) collector.head = head;
  const key = JSON.stringify(head);
  useEffect(() => {
    applyHead(document, JSON.parse(key) as Head);
  }, [key]);
}
