import type { ServerEntry } from '@aitools/platform';
import Submit from './routes/Submit';
import Contact from './routes/Contact';
import Advertise from './routes/Advertise';

const entry: ServerEntry = {
  remote: 'forms',
  routes: {
    './Submit': { Component: Submit },
    './Contact': { Component: Contact },
    './Advertise': { Component: Advertise },
  },
};
export default entry;
