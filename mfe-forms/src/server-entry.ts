import type { ServerEntry } from '@aitools/platform';
import Submit from './routes/Submit';
import Contact from './routes/Contact';
import Advertise from './routes/Advertise';

const entry: ServerEntry = {
  remote: 'forms',
  routes: {
    './Submit': Submit,
    './Contact': Contact,
    './Advertise': Advertise,
  },
};
export default entry;
