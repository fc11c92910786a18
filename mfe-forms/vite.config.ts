import { remoteConfig } from '@aitools/platform/vite';

export default remoteConfig({
  name: 'forms',
  root: import.meta.dirname,
  exposes: {
    './Submit': './src/routes/Submit.tsx',
    './Contact': './src/routes/Contact.tsx',
    './Advertise': './src/routes/Advertise.tsx',
  },
});
