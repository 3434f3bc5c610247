/** `npm run admin -- <command> [options] [--json]`: see infra/admin/cli.ts, or `npm run admin -- help`. */
import '../check-node.js';
import { runAdmin } from '#infra/admin/cli.ts';

process.exitCode = await runAdmin(process.argv.slice(2));
