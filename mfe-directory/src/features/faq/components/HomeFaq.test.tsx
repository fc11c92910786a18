import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { HomeFaq } from './HomeFaq';

describe('HomeFaq', () => {
  it('is 20 native disclosures from the server, and one opened before the code stays open when hydrated', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<HomeFaq />);
    document.body.appendChild(container);
    try {
      const entries = [...container.querySelectorAll('details')];
      expect(entries).toHaveLength(20);
      expect(entries.some((d) => d.hasAttribute('name'))).toBe(false);
      expect(container.innerHTML).toContain('hello[at]aitoolsdirectory[dot]example');
      expect(container.innerHTML).not.toContain('hello@');
      // A visitor opens an entry before the code arrives (the browser does it: no script needed).
      entries[3].open = true;
      const errors: unknown[] = [];
      await act(async () => void hydrateRoot(container, <HomeFaq />, { onRecoverableError: (e) => errors.push(e) }));
      expect(errors).toEqual([]);
      expect(container.querySelectorAll('details')[3]).toBe(entries[3]);
      expect(entries.map((d) => d.open)).toEqual(entries.map((_, i) => i === 3));
    } finally {
      container.remove();
    }
  });
});
