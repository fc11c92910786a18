import type { ServerEntry } from '@aitools/platform';
import Home from './routes/Home';
import ToolDetail from './routes/ToolDetail';
import { loadHome, loadToolDetail } from './routes/loaders';

const entry: ServerEntry = {
  remote: 'directory',
  routes: {
    './Home': { Component: Home, load: loadHome },
    './ToolDetail': { Component: ToolDetail, load: loadToolDetail },
  },
};
export default entry;
