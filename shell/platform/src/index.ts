export type {
  RouteModule,
  RouteProps,
  ServerEntry,
  HeadArgs,
  JsonApi,
  FetchJson,
  JsonRequest,
  JsonResult,
  RouteServerContext,
} from './contract';
export { routeApi, defineRoute } from './contract';
export { useHead, HeadContext } from './head';
export { applyHead, renderHeadTags, canonicalUrl, serializeJsonForScript, escapeHtml } from './headTags';
export type { Head, HeadCollector } from './head';
export { getConfig, resolveApiUrl, configStore } from './config';
export type { AppConfig } from './config';
export { fetchJson, postJson } from './api';
export { readStorage, writeStorage, removeStorage, readJson, writeJson } from './storage';
export { ShareLink } from './ShareLink';
export { globalSingleton } from './singleton';
export { SITE_NAME, SOCIAL_LINKS, contactEmail, formatLongDate, scrollToTop, focusContent, CONTENT_ID } from './site';
export { SocialLinks } from './SocialLinks';
export { SelectOptions } from './SelectOptions';
export { Pagination } from './Pagination';
export { ServerHtml } from './ServerHtml';
export { HydrateLater } from './HydrateLater';
export type { PaginationProps } from './Pagination';
export type { PageWindow } from './pagination';
