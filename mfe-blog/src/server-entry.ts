import type { ServerEntry } from '@aitools/platform';
import BlogList, { loadBlogList } from './routes/BlogList';
import BlogPost, { loadBlogPost } from './routes/BlogPost';

const entry: ServerEntry = {
  remote: 'blog',
  routes: {
    './BlogList': { Component: BlogList, load: loadBlogList },
    './BlogPost': { Component: BlogPost, load: loadBlogPost },
  },
};
export default entry;
