/**
 * The zod of the form contracts, the only contracts that parse in the browser. Jitless: zod 4 otherwise probes
 * `new Function` on first parse, which the site's CSP (no 'unsafe-eval') reports as a violation. The forms
 * contract is bundled into the remotes, so every browser bundle that validates a form runs this line first.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
