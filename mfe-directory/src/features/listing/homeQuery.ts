import { toolQueryString, type ToolQuery } from '@aitools/contracts/toolQuery';

/** The home page's address for a query (the query's own rules live in the API contract, shared with the server). */
export const homeHref = (q: ToolQuery) => `/${toolQueryString(q)}`;
