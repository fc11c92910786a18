/** Types of hashTree.mjs for the TypeScript packages that import it. */
export function hashTree(paths: string[], options: { base: string; skip?: (path: string) => boolean }): string;
