import type { ServerEntry } from '@aitools/platform';
import Privacy from './routes/Privacy';
import Terms from './routes/Terms';
import Cookies from './routes/Cookies';

const entry: ServerEntry = {
  remote: 'legal',
  routes: {
    './Privacy': Privacy,
    './Terms': Terms,
    './Cookies': Cookies,
  },
};
export default entry;
