import type { JsonApi } from '@aitools/platform';
import { fetchPostList } from './api';
import { createBlogService, type BlogService } from './blogService';

const services = new WeakMap<JsonApi, BlogService>();

/**
 * The blog data service over an API (the loader's `routeApi(context)`). In the browser that API is one object for
 * the page's whole life, so the service's 5-minute cache (docs/product.md, Post data) serves every in-app visit to /blog; on the
 * server each request brings its own API, so every request reads the posts afresh.
 */
export function blogServiceFor(api: JsonApi): BlogService {
  let service = services.get(api);
  if (!service) {
    service = createBlogService(() => fetchPostList(api.fetchJson.bind(api)));
    services.set(api, service);
  }
  return service;
}
