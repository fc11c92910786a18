import type { ServerEntry } from '@aitools/platform';
import Home from './routes/Home';
import ToolDetail from './routes/ToolDetail';

const entry: ServerEntry = {
  remote: 'directory',
  routes: {
    './Home': Home,
    './ToolDetail': ToolDetail,
  },
};
export default entry;
