import type { ServerEntry } from '@aitools/platform';
import Privacy from './routes/Privacy';
import Terms from './routes/Terms';
import Cookies from './routes/Cookies';

const entry: ServerEntry = {
  remote: 'legal',
  routes: {
    './Privacy': { Component: Privacy },
    './Terms': { Component: Terms },
    './Cookies': { Component: Cookies },
  },
};
export default entry;
