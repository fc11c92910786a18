import { fetchJson } from '@aitools/platform';
import { fetchPostList } from './api';
import { createBlogService } from './blogService';

/** The browser's one blog data service (never used on the server, where loaders fetch per request). */
export const blogService = createBlogService(() => fetchPostList(fetchJson));
