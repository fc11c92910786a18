// Rollup needs an input of its own for a remote's browser build; the federation plugin emits the real entry.
export {};
