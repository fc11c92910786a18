import { useEffect, useRef, useState } from 'react';

/**
 * The search box is local state, so typing is instant; the address follows it. A change of the address from
 * elsewhere (Back, a link) is brought into the box; our own writes are told apart by the last text written.
 */
export function useSearchBox(urlSearch: string) {
  const [text, setText] = useState(urlSearch);
  const lastWritten = useRef(urlSearch);
  const input = useRef<HTMLInputElement>(null);
  const show = (value: string) => {
    if (input.current) input.current.value = value;
  };
  useEffect(() => {
    if (urlSearch !== lastWritten.current) {
      lastWritten.current = urlSearch;
      setText(urlSearch);
      show(urlSearch);
    }
  }, [urlSearch]);

  return {
    text,
    input,
    /** The visitor typed this (the address is about to follow). */
    typed(value: string) {
      setText(value);
      lastWritten.current = value;
    },
    clear() {
      setText('');
      lastWritten.current = '';
      show('');
    },
  };
}
