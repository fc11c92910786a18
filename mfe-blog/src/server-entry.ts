import type { ServerEntry } from '@aitools/platform';
import BlogList from './routes/BlogList';
import BlogPost from './routes/BlogPost';

const entry: ServerEntry = {
  remote: 'blog',
  routes: {
    './BlogList': BlogList,
    './BlogPost': BlogPost,
  },
};
export default entry;
