import type { MouseEvent } from 'react';

/** A plain click (main button, no modifier keys) on a link is handled in place; anything else is left to the browser. */
export const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
