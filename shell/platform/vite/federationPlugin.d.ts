/** The federation plugin's own version check (its dist/satisfy.mjs), the name federationConfig.ts resolves to it. */
declare module 'federation-plugin-satisfy' {
  export function satisfy(version: string, range: string): boolean;
}
