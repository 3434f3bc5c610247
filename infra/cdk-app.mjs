// The `app` of cdk.json. Plain JavaScript that any Node runs, because the `cdk` CLI starts it with
// whatever `node` is first on PATH: a global `cdk` on Node 20 cannot load infra/app.ts, which
// needs Node 24's type stripping. It runs the app with the project's own Node (the `node` package
// that `npm ci` installs), passing the CLI's environment (CDK_OUTDIR, CDK_CONTEXT_JSON…), the
// arguments and the exit status through.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
if (!existsSync(node)) {
  console.error(`Easel: ${node} is missing: run \`npm ci\` in ${root} (without --ignore-scripts) before cdk.`);
  process.exit(1);
}
const result = spawnSync(node, [join(root, 'infra', 'app.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
if (result.error) {
  console.error(`Easel: could not run ${node}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
